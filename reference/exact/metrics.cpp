#include "exact/metrics.hpp"

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

template <typename T>
AccuracyMetrics measure_impl(const std::vector<T>& c, const ExactProduct& e) {
  if (c.size() != e.nearest.size())
    throw std::invalid_argument("measure: C and the exact product differ in size");
  using Bits = typename Traits<T>::Bits;
  AccuracyMetrics m;
  m.elements = c.size();
  long double max_err = 0, max_ref = 0, max_ulps = 0;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  double min_bits = nan;  // no compared element with E != 0 yet
  for (size_t i = 0; i < c.size(); ++i) {
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
    max_err = std::max(max_err, err);
    max_ref = std::max(max_ref, std::fabs(exact));
    max_ulps = std::max(max_ulps, err / ulp_of(ri));
    if (exact != 0) {
      const double bits = err == 0 ? inf : static_cast<double>(-std::log2(err / std::fabs(exact)));
      min_bits = std::isnan(min_bits) ? bits : std::min(min_bits, bits);
    }
  }
  if (m.compared_elements == 0) m.correct_bits_maxnorm = nan;
  else if (max_err == 0) m.correct_bits_maxnorm = inf;
  else if (max_ref == 0) m.correct_bits_maxnorm = -inf;
  else m.correct_bits_maxnorm = static_cast<double>(-std::log2(max_err / max_ref));
  m.correct_bits_elementwise_min = min_bits;
  m.max_ulp_error = m.compared_elements == 0 ? nan : static_cast<double>(max_ulps);  // +inf past the FP64 range
  return m;
}

}  // namespace

AccuracyMetrics measure(const std::vector<double>& c, const ExactProduct& e) {
  return measure_impl(c, e);
}
AccuracyMetrics measure(const std::vector<float>& c, const ExactProduct& e) {
  return measure_impl(c, e);
}

}  // namespace ozref
