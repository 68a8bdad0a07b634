// A computed product C against the exact product of A and B (`ozref check`, api::check): an f8 C
// is compared with the exact product rounded to FP64, an f4 C with it rounded once to FP32.
#pragma once
#include <string>

#include "api/operands.hpp"
#include "exact/metrics.hpp"
#include "io/npy.hpp"

namespace ozref {

struct CheckOutcome {
  AccuracyMetrics metrics{};
  size_t m = 0, n = 0, k = 0;
  const char* c_precision = "fp64";  // "fp64" for an f8 C, "fp32" for an f4 C
};

// InputError naming `c_name` when C is not m x n, or not f8 or f4.
CheckOutcome check_product(const Operands& ops, const NpyArray& c, const std::string& c_name, int threads);

}  // namespace ozref
