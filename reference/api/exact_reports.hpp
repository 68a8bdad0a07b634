// What api::exact and api::check return, made from an exact product wherever it was computed: the
// CPU's exact_gemm (api/exact.cpp, api/check.cpp) or the GPU's (device/api/exact_on_device.cpp).
#pragma once
#include <functional>
#include <optional>

#include "api/product_operands.hpp"
#include "exact/exact_gemm.hpp"
#include "ozref/check.hpp"
#include "ozref/exact.hpp"

namespace ozref::api {

// The caller's A and B as exact() and check() take them (A refused before B is looked at).
ProductOperands product_operands_of(const ArrayRef& a, const ArrayRef& b);
// The product in the caller's terms: the complex shape for a complex product.
ExactProduct public_exact(const ozref::ExactProduct& e, const ProductOperands& p);

// check's report for C against exact_of(A, B), called once C's shape and dtype are known to fit.
using ExactOf = std::function<ozref::ExactProduct(const Operands&)>;
CheckReport check_report(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads, const std::optional<AccuracyFloor>& floor,
                         const ExactOf& exact_of);

}  // namespace ozref::api
