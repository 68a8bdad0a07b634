// Accuracy of an approximation C against the exact product E (exact/exact_gemm.hpp).
// Errors |C - E| are measured against E's double-double form nearest + residual in 80-bit
// arithmetic: a relative error of at most 2^-63 on each error, which no reported figure resolves.
#pragma once
#include <cstddef>
#include <vector>

#include "exact/exact_gemm.hpp"

namespace ozref {

struct AccuracyMetrics {
  size_t elements = 0;
  size_t bit_identical = 0;  // C equals the correctly rounded E bit for bit (any NaN matches NaN;
                             // either zero matches an exactly zero E, whose sign is undefined)
  // -log2(max|C - E| / max|E|) over elements where both are finite; +inf when no element errs,
  // -inf when max|E| is 0 and some element errs.
  double correct_bits_maxnorm = 0;
  // min over finite E != 0 of -log2(|C - E| / |E|); +inf when every such element is exact.
  double correct_bits_elementwise_min = 0;
  double max_ulp_error = 0;  // max |C - E| / ulp(round(E)) over elements where both are finite
  size_t zero_reference_elements = 0;    // E exactly zero
  size_t zero_reference_mismatches = 0;  // ... where C is not a zero
  size_t nan_mismatches = 0;             // exactly one of C and E is NaN
  size_t infinity_mismatches = 0;        // E or C infinite (neither NaN) and C != round(E)
};

AccuracyMetrics measure(const std::vector<double>& c, const ExactProduct& e);
AccuracyMetrics measure(const std::vector<float>& c, const ExactProduct& e);

}  // namespace ozref
