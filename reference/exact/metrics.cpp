#include "exact/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ozref {
namespace {

template <typename T>
struct Traits;
template <>
struct Traits<double> {
  using Bits = uint64_t;
  static constexpr int kFractionBits = 52, kMinExponent = -1022;
  static double nearest(const ExactProduct& e, size_t i) { return e.nearest[i]; }
};
template <>
struct Traits<float> {
  using Bits = uint32_t;
  static constexpr int kFractionBits = 23, kMinExponent = -126;
  static float nearest(const ExactProduct& e, size_t i) { return e.nearest_fp32[i]; }
};

template <typename T>
long double ulp_of(T rounded) {
  int exp = 0;
  std::frexp(rounded, &exp);  // rounded = f * 2^exp, f in [0.5, 1)
  const int e = rounded == 0 ? Traits<T>::kMinExponent : std::max(exp - 1, Traits<T>::kMinExponent);
  return std::ldexp(1.0L, e - Traits<T>::kFractionBits);
}

// The sums of elements [first, last) of C.
template <typename T>
MetricSums measure_range(const std::vector<T>& c, const ExactProduct& e, size_t first, size_t last) {
  using Bits = typename Traits<T>::Bits;
  MetricSums s;
  AccuracyMetrics& m = s.counts;
  m.elements = last - first;
  const double inf = std::numeric_limits<double>::infinity();
  for (size_t i = first; i < last; ++i) {
    const T ci = c[i];
    const T ri = Traits<T>::nearest(e, i);
    const bool exact_zero = e.nearest[i] == 0 && e.residual[i] == 0 && e.residual_exact[i];
    if (exact_zero) ++m.zero_reference_elements;
    if (std::isnan(ci) || std::isnan(ri)) {
      if (std::isnan(ci) && std::isnan(ri)) ++m.bit_identical;
      else ++m.nan_mismatches;
      continue;
    }
    const bool identical = std::bit_cast<Bits>(ci) == std::bit_cast<Bits>(ri) ||
                           (exact_zero && ci == 0);
    if (identical) ++m.bit_identical;
    if (exact_zero && ci != 0) ++m.zero_reference_mismatches;
    if (std::isinf(ci) || std::isinf(e.nearest[i]) || std::isinf(ri)) {
      if (!identical) ++m.infinity_mismatches;
      continue;
    }
    const long double exact = static_cast<long double>(e.nearest[i]) + e.residual[i];
    const long double err = std::fabs(static_cast<long double>(ci) - e.nearest[i] - e.residual[i]);
    ++m.compared_elements;
    if (err != 0) ++m.erring_elements;
    s.max_err = std::max(s.max_err, err);
    s.max_ref = std::max(s.max_ref, std::fabs(exact));
    s.max_ulps = std::max(s.max_ulps, err / ulp_of(ri));
    if (exact != 0) {
      const double bits = err == 0 ? inf : static_cast<double>(-std::log2(err / std::fabs(exact)));
      s.min_bits = s.has_min_bits ? std::min(s.min_bits, bits) : bits;
      s.has_min_bits = true;
    }
  }
  return s;
}

// Parts of C on OpenMP's threads, merged: the figures are counts, maxima and minima, so any
// partition gives the same bits (merge_sums).
template <typename T>
MetricSums measure_impl(const std::vector<T>& c, const ExactProduct& e) {
  if (c.size() != e.nearest.size())
    throw std::invalid_argument("measure: C and the exact product differ in size");
  constexpr size_t kPart = 1 << 16;
  MetricSums total;
#pragma omp parallel
  {
    MetricSums mine;
#pragma omp for schedule(static)
    for (size_t first = 0; first < c.size(); first += kPart)
      merge_sums(mine, measure_range(c, e, first, std::min(c.size(), first + kPart)));
#pragma omp critical(ozref_measure_merge)
    merge_sums(total, mine);
  }
  return total;
}

}  // namespace

MetricSums measure_sums(const std::vector<double>& c, const ExactProduct& e) { return measure_impl(c, e); }
MetricSums measure_sums(const std::vector<float>& c, const ExactProduct& e) { return measure_impl(c, e); }

void merge_sums(MetricSums& into, const MetricSums& part) {
  AccuracyMetrics& m = into.counts;
  const AccuracyMetrics& p = part.counts;
  for (auto field : {&AccuracyMetrics::elements, &AccuracyMetrics::bit_identical, &AccuracyMetrics::compared_elements,
                     &AccuracyMetrics::erring_elements, &AccuracyMetrics::zero_reference_elements,
                     &AccuracyMetrics::zero_reference_mismatches, &AccuracyMetrics::nan_mismatches,
                     &AccuracyMetrics::infinity_mismatches})
    m.*field += p.*field;
  into.max_err = std::max(into.max_err, part.max_err);
  into.max_ref = std::max(into.max_ref, part.max_ref);
  into.max_ulps = std::max(into.max_ulps, part.max_ulps);
  if (part.has_min_bits) into.min_bits = into.has_min_bits ? std::min(into.min_bits, part.min_bits) : part.min_bits;
  into.has_min_bits = into.has_min_bits || part.has_min_bits;
}

AccuracyMetrics finish_metrics(const MetricSums& s) {
  AccuracyMetrics m = s.counts;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  if (m.compared_elements == 0) m.correct_bits_maxnorm = nan;
  else if (s.max_err == 0) m.correct_bits_maxnorm = inf;
  else if (s.max_ref == 0) m.correct_bits_maxnorm = -inf;
  else m.correct_bits_maxnorm = static_cast<double>(-std::log2(s.max_err / s.max_ref));
  m.correct_bits_elementwise_min = s.has_min_bits ? s.min_bits : nan;
  m.max_ulp_error = m.compared_elements == 0 ? nan : static_cast<double>(s.max_ulps);  // +inf past the FP64 range
  return m;
}

AccuracyMetrics measure(const std::vector<double>& c, const ExactProduct& e) { return finish_metrics(measure_sums(c, e)); }
AccuracyMetrics measure(const std::vector<float>& c, const ExactProduct& e) { return finish_metrics(measure_sums(c, e)); }

}  // namespace ozref
