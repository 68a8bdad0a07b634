// ozref's public C++ interface (docs/api.md): link ozref::core (and ozref::device for lockstep).
#pragma once
#include "ozref/array.hpp"
#include "ozref/check.hpp"
#include "ozref/error.hpp"
#include "ozref/exact.hpp"
#include "ozref/fuzz.hpp"
#include "ozref/lockstep.hpp"
#include "ozref/metrics.hpp"
#include "ozref/mma.hpp"
#include "ozref/run.hpp"
#include "ozref/verify_trace.hpp"
