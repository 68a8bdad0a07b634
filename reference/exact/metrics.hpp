// Accuracy of an approximation C against the exact product E (exact/exact_gemm.hpp).
// Errors |C - E| are measured against E = nearest + residual (the residual in the 80-bit format,
// rounded to odd) in 80-bit arithmetic: a relative error below 2^-62 on each error at every
// magnitude, FP64's subnormal range included, which no reported figure resolves.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "exact/exact_gemm.hpp"

namespace ozref {

// The element that sets an error figure (the first in row-major order among equals).
struct WorstElement {
  bool present = false;  // false when no compared element errs (or, elementwise, none with E != 0 does)
  size_t row = 0, col = 0;  // its place in the whole C
  double c = 0;             // C there (an FP32 C widened exactly)
  double rounded = 0;       // E rounded to C's precision
  double error_log2 = 0;    // log2 |C - E|
  double ulps = 0;          // |C - E| in units in the last place of `rounded` (+inf past FP64's range)
  double correct_bits = 0;  // -log2(|C - E| / |E|); -inf where E is 0
  const char* part = nullptr;  // a complex C's "real" or "imag" part at (row, col) (null for a real C)
};

// The first element, in row-major order, that is a special-value mismatch of the kinds counted below.
struct SpecialMismatch {
  enum class Kind { None, Nan, Infinity, ZeroReference };
  Kind kind = Kind::None;
  size_t row = 0, col = 0;
  double c = 0, rounded = 0;
  const char* part = nullptr;  // as WorstElement's
};
const char* special_mismatch_name(SpecialMismatch::Kind kind);
// "C[3, 17]", or with a part "C[3, 17].imag".
std::string element_place(size_t row, size_t col, const char* part);

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
  WorstElement worst_maxnorm;      // the compared element of largest |C - E|
  WorstElement worst_elementwise;  // the compared element with E != 0 of fewest correct bits
  SpecialMismatch first_special_mismatch;
};

// Where a part of C lies in the whole: its first row and column, and its width (0: e.cols).
struct PartPlace {
  size_t row0 = 0, col0 = 0, cols = 0;
};

AccuracyMetrics measure(const std::vector<double>& c, const ExactProduct& e);
AccuracyMetrics measure(const std::vector<float>& c, const ExactProduct& e);

// measure() in parts: the sums of one part of C (a block of a distributed check) merge with
// those of the others in any order, since every figure is a count, a maximum or a minimum (ties
// broken by place), and finish_metrics turns the merged sums into the figures above: the same
// bits as measure() on the whole. `c` and `e` hold the same part, row-major, at `place`.
// Trivially copyable, so that ranks exchange it as bytes.
struct MetricSums {
  AccuracyMetrics counts{};  // the counts and places; the figures are filled by finish_metrics
  long double max_err = 0, max_ref = 0, max_ulps = 0;
  long double worst_rel = 0;  // |C - E| / |E| of worst_elementwise
  bool has_nonzero_reference = false;  // some compared element has E != 0
};
MetricSums measure_sums(const std::vector<double>& c, const ExactProduct& e, PartPlace place = {});
MetricSums measure_sums(const std::vector<float>& c, const ExactProduct& e, PartPlace place = {});
void merge_sums(MetricSums& into, const MetricSums& part);
AccuracyMetrics finish_metrics(const MetricSums& sums);

}  // namespace ozref
