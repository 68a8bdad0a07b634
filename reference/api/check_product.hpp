// A computed product C against the exact product of A and B (`ozref check`, api::check): an f8 C
// is compared with the exact product rounded to FP64, an f4 C with it rounded once to FP32.
#pragma once
#include <string>

#include <optional>

#include "api/accuracy_gate.hpp"
#include "api/operands.hpp"
#include "exact/metrics.hpp"
#include "io/npy.hpp"

namespace ozref {

struct CheckOutcome {
  AccuracyMetrics metrics{};
  size_t m = 0, n = 0, k = 0;
  const char* c_precision = "fp64";  // "fp64" for an f8 C, "fp32" for an f4 C
  bool complex = false;              // a complex product (C c16, measured part by part)
  std::optional<AccuracyGate> gate = std::nullopt;  // the floor asked for, if any (its verdict: judge(metrics, *gate))
};

// InputError naming `c_name` when C is not m x n.
void require_c_shape(const std::vector<size_t>& shape, size_t m, size_t n, const std::string& c_name);
// InputError naming `c_name` when C (its shape and dtype) is not m x n, or not f8 or f4.
void require_c_matching(const std::vector<size_t>& shape, DType dtype, size_t m, size_t n, const std::string& c_name);
const char* c_precision_of(DType dtype);  // "fp64" for f8, "fp32" for f4
// The sums of C (a 2-D f8 or f4 array, all of it or one block) against the same part of the exact product.
MetricSums measure_c(const NpyArray& c, const ExactProduct& e, const std::string& c_name, int threads, PartPlace place = {});

// C against a given exact product e (exact_gemm's or gpu_exact's); InputError as below.
CheckOutcome check_against(const ExactProduct& e, const NpyArray& c, const std::string& c_name, int threads);

}  // namespace ozref
