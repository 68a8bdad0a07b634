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
  // The error figures below cover the compared elements: C and round(E) both finite.
  size_t compared_elements = 0;
  size_t erring_elements = 0;  // compared elements with C != E (E exact, not rounded)
  // -log2(max|C - E| / max|E|) over the compared elements. NaN when no element was compared;
  // +inf when none errs; -inf when max|E| is 0 and some element errs.
  double correct_bits_maxnorm = 0;
  // min of -log2(|C - E| / |E|) over the compared elements with E != 0. NaN when there is no
  // such element; +inf when none of them errs.
  double correct_bits_elementwise_min = 0;
  // max |C - E| / ulp(round(E)) over the compared elements; NaN when none was compared, +inf
  // when the ratio exceeds the FP64 range.
  double max_ulp_error = 0;
  size_t zero_reference_elements = 0;    // E exactly zero
  size_t zero_reference_mismatches = 0;  // ... where C is not a zero
  size_t nan_mismatches = 0;             // exactly one of C and round(E) is NaN (C = inf where
                                         // E is NaN counts here)
  size_t infinity_mismatches = 0;        // neither is NaN, one is infinite, and C != round(E)
};

AccuracyMetrics measure(const std::vector<double>& c, const ExactProduct& e);
AccuracyMetrics measure(const std::vector<float>& c, const ExactProduct& e);

// measure() in parts: the sums of one part of C (a block of a distributed check) merge with
// those of the others in any order, since every figure is a count, a maximum or a minimum, and
// finish_metrics turns the merged sums into the figures above: the same bits as measure() on the
// whole. `c` and `e` hold the same part. Trivially copyable, so that ranks exchange it as bytes.
struct MetricSums {
  AccuracyMetrics counts{};  // the counts; the error figures are filled by finish_metrics
  long double max_err = 0, max_ref = 0, max_ulps = 0;
  double min_bits = 0;   // meaningful only when has_min_bits
  bool has_min_bits = false;
};
MetricSums measure_sums(const std::vector<double>& c, const ExactProduct& e);
MetricSums measure_sums(const std::vector<float>& c, const ExactProduct& e);
void merge_sums(MetricSums& into, const MetricSums& part);
AccuracyMetrics finish_metrics(const MetricSums& sums);

}  // namespace ozref
