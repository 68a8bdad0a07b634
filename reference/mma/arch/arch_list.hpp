// One factory per architecture file; registry.cpp collects them.
#pragma once
#include "mma/instruction.hpp"

namespace ozref::mma {
ArchSpec make_ideal();
ArchSpec make_sm_80();
ArchSpec make_sm_89();
ArchSpec make_sm_90();
ArchSpec make_sm_100();
ArchSpec make_sm_120();
}  // namespace ozref::mma
