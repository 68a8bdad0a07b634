#include "exact/metrics.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "exact/scaled_long_double.hpp"

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

// The unit in the last place of a finite `rounded`, from its exponent field (zeros and subnormals:
// the smallest normal exponent's unit).
template <typename T>
long double ulp_of(T rounded) {
  constexpr int bias = 1 - Traits<T>::kMinExponent;
  const int field = static_cast<int>((std::bit_cast<typename Traits<T>::Bits>(rounded) >> Traits<T>::kFractionBits) & (2 * bias + 1));
  return scaled_long_double(1, std::max(field - bias, Traits<T>::kMinExponent) - Traits<T>::kFractionBits);
}

// Whether the place (row, col) comes before `other`'s in row-major order.
template <typename P>
bool earlier(size_t row, size_t col, const P& other) {
  return row < other.row || (row == other.row && col < other.col);
}

// The sums of elements [first, last) of C, a part at `place`.
template <typename T>
MetricSums measure_range(const std::vector<T>& c, const ExactProduct& e, PartPlace place, size_t first, size_t last) {
  using Bits = typename Traits<T>::Bits;
  MetricSums s;
  AccuracyMetrics& m = s.counts;
  m.elements = last - first;
  const size_t cols = place.cols ? place.cols : e.cols;
  for (size_t i = first; i < last; ++i) {
    const T ci = c[i];
    const T ri = Traits<T>::nearest(e, i);
    const size_t row = place.row0 + i / cols, col = place.col0 + i % cols;
    const bool exact_zero = e.nearest[i] == 0 && e.residual[i] == 0 && e.residual_exact[i];
    if (exact_zero) ++m.zero_reference_elements;
    auto special = [&](SpecialMismatch::Kind kind) {
      SpecialMismatch& f = m.first_special_mismatch;
      if (f.kind == SpecialMismatch::Kind::None || earlier(row, col, f)) f = {kind, row, col, double(ci), double(ri)};
    };
    if (std::isnan(ci) || std::isnan(ri)) {
      if (std::isnan(ci) && std::isnan(ri)) ++m.bit_identical;
      else ++m.nan_mismatches, special(SpecialMismatch::Kind::Nan);
      continue;
    }
    const bool identical = std::bit_cast<Bits>(ci) == std::bit_cast<Bits>(ri) ||
                           (exact_zero && ci == 0);
    if (identical) ++m.bit_identical;
    if (exact_zero && ci != 0) ++m.zero_reference_mismatches, special(SpecialMismatch::Kind::ZeroReference);
    if (std::isinf(ci) || std::isinf(e.nearest[i]) || std::isinf(ri)) {
      if (!identical) ++m.infinity_mismatches, special(SpecialMismatch::Kind::Infinity);
      continue;
    }
    const long double exact = static_cast<long double>(e.nearest[i]) + e.residual[i];
    const long double err = std::fabs(static_cast<long double>(ci) - e.nearest[i] - e.residual[i]);
    ++m.compared_elements;
    s.max_ref = std::max(s.max_ref, std::fabs(exact));
    s.has_nonzero_reference = s.has_nonzero_reference || exact != 0;
    if (err == 0) continue;
    ++m.erring_elements;
    const long double ulps = err / ulp_of(ri), rel = exact == 0 ? 0 : err / std::fabs(exact);
    s.max_ulps = std::max(s.max_ulps, ulps);
    auto describe = [&] {
      return WorstElement{true, row, col, double(ci), double(ri), double(std::log2(err)), double(ulps),
                          exact == 0 ? -std::numeric_limits<double>::infinity() : double(-std::log2(rel))};
    };
    if (err > s.max_err || (err == s.max_err && earlier(row, col, m.worst_maxnorm))) {
      s.max_err = err;
      m.worst_maxnorm = describe();
    }
    if (exact != 0 && (rel > s.worst_rel || (rel == s.worst_rel && earlier(row, col, m.worst_elementwise)))) {
      s.worst_rel = rel;
      m.worst_elementwise = describe();
    }
  }
  return s;
}

// Parts of C on OpenMP's threads, merged: the figures are counts, maxima and minima, so any
// partition gives the same bits (merge_sums).
template <typename T>
MetricSums measure_impl(const std::vector<T>& c, const ExactProduct& e, PartPlace place) {
  if (c.size() != e.nearest.size())
    throw std::invalid_argument("measure: C and the exact product differ in size");
  constexpr size_t kPart = 1 << 16;
  MetricSums total;
#pragma omp parallel
  {
    MetricSums mine;
#pragma omp for schedule(static)
    for (size_t first = 0; first < c.size(); first += kPart)
      merge_sums(mine, measure_range(c, e, place, first, std::min(c.size(), first + kPart)));
#pragma omp critical(ozref_measure_merge)
    merge_sums(total, mine);
  }
  return total;
}

}  // namespace

MetricSums measure_sums(const std::vector<double>& c, const ExactProduct& e, PartPlace place) { return measure_impl(c, e, place); }
MetricSums measure_sums(const std::vector<float>& c, const ExactProduct& e, PartPlace place) { return measure_impl(c, e, place); }

std::string element_place(size_t row, size_t col, const char* part) {
  std::string text = "C[" + std::to_string(row) + ", " + std::to_string(col) + "]";
  return part ? text + "." + part : text;
}

const char* special_mismatch_name(SpecialMismatch::Kind kind) {
  switch (kind) {
    case SpecialMismatch::Kind::Nan: return "NaN mismatch";
    case SpecialMismatch::Kind::Infinity: return "infinity mismatch";
    case SpecialMismatch::Kind::ZeroReference: return "nonzero where the exact product is zero";
    case SpecialMismatch::Kind::None: break;
  }
  return "none";
}

void merge_sums(MetricSums& into, const MetricSums& part) {
  AccuracyMetrics& m = into.counts;
  const AccuracyMetrics& p = part.counts;
  for (auto field : {&AccuracyMetrics::elements, &AccuracyMetrics::bit_identical, &AccuracyMetrics::compared_elements,
                     &AccuracyMetrics::erring_elements, &AccuracyMetrics::zero_reference_elements,
                     &AccuracyMetrics::zero_reference_mismatches, &AccuracyMetrics::nan_mismatches,
                     &AccuracyMetrics::infinity_mismatches})
    m.*field += p.*field;
  const WorstElement &pa = p.worst_maxnorm, &pr = p.worst_elementwise;
  if (pa.present && (part.max_err > into.max_err || (part.max_err == into.max_err && earlier(pa.row, pa.col, m.worst_maxnorm))))
    m.worst_maxnorm = pa;
  if (pr.present && (part.worst_rel > into.worst_rel || (part.worst_rel == into.worst_rel && earlier(pr.row, pr.col, m.worst_elementwise))))
    m.worst_elementwise = pr, into.worst_rel = part.worst_rel;
  const SpecialMismatch& ps = p.first_special_mismatch;
  if (ps.kind != SpecialMismatch::Kind::None &&
      (m.first_special_mismatch.kind == SpecialMismatch::Kind::None || earlier(ps.row, ps.col, m.first_special_mismatch)))
    m.first_special_mismatch = ps;
  into.max_err = std::max(into.max_err, part.max_err);
  into.max_ref = std::max(into.max_ref, part.max_ref);
  into.max_ulps = std::max(into.max_ulps, part.max_ulps);
  into.has_nonzero_reference = into.has_nonzero_reference || part.has_nonzero_reference;
}

AccuracyMetrics finish_metrics(const MetricSums& s) {
  AccuracyMetrics m = s.counts;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  if (m.compared_elements == 0) m.correct_bits_maxnorm = nan;
  else if (s.max_err == 0) m.correct_bits_maxnorm = inf;
  else if (s.max_ref == 0) m.correct_bits_maxnorm = -inf;
  else m.correct_bits_maxnorm = static_cast<double>(-std::log2(s.max_err / s.max_ref));
  m.correct_bits_elementwise_min = !s.has_nonzero_reference ? nan : m.worst_elementwise.present ? m.worst_elementwise.correct_bits : inf;
  m.max_ulp_error = m.compared_elements == 0 ? nan : static_cast<double>(s.max_ulps);  // +inf past the FP64 range
  return m;
}

AccuracyMetrics measure(const std::vector<double>& c, const ExactProduct& e) { return finish_metrics(measure_sums(c, e)); }
AccuracyMetrics measure(const std::vector<float>& c, const ExactProduct& e) { return finish_metrics(measure_sums(c, e)); }

}  // namespace ozref
