// The comparator behind `ozref check`, on hand-built cases whose answers are known by
// construction (a NaN-blind or zero-blind comparator is the classic bug).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "common/rng.hpp"
#include "exact/metrics.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
ExactProduct reference(std::vector<double> nearest) {
  ExactProduct e;
  e.rows = 1;
  e.cols = nearest.size();
  e.depth = 1;
  e.nearest.assign(nearest.begin(), nearest.end());
  e.residual.assign(nearest.size(), 0.0);
  e.residual_exact.assign(nearest.size(), 1);
  for (double v : nearest) e.nearest_fp32.push_back(static_cast<float>(v));
  return e;
}
const double inf = std::numeric_limits<double>::infinity();
}  // namespace

TEST_CASE("metrics: identical results", "[metrics]") {
  const ExactProduct e = reference({1.0, -2.5, 0.0, 3e-310});
  const AccuracyMetrics m = measure(std::vector<double>{1.0, -2.5, 0.0, 3e-310}, e);
  CHECK(m.elements == 4);
  CHECK(m.bit_identical == 4);
  CHECK(m.compared_elements == 4);
  CHECK(m.erring_elements == 0);
  CHECK(m.correct_bits_maxnorm == inf);
  CHECK(m.correct_bits_elementwise_min == inf);
  CHECK(m.max_ulp_error == 0);
  CHECK(m.zero_reference_elements == 1);
  CHECK(m.zero_reference_mismatches == 0);
}

TEST_CASE("metrics: one ulp off", "[metrics]") {
  const ExactProduct e = reference({1.0, 4.0});
  const AccuracyMetrics m = measure(std::vector<double>{1.0, std::nextafter(4.0, 5.0)}, e);
  CHECK(m.bit_identical == 1);
  CHECK(m.max_ulp_error == 1.0);
  CHECK(m.correct_bits_maxnorm == Approx(52.0));  // 2^-50 error over max 4
  CHECK(m.correct_bits_elementwise_min == Approx(52.0));
}

TEST_CASE("metrics: the residual counts in the error", "[metrics]") {
  ExactProduct e = reference({1.0});
  e.residual[0] = 0x1p-60;  // E = 1 + 2^-60, C = 1
  const AccuracyMetrics m = measure(std::vector<double>{1.0}, e);
  CHECK(m.bit_identical == 1);  // C is the correctly rounded E
  CHECK(m.correct_bits_maxnorm == Approx(60.0));
  CHECK(m.max_ulp_error == Approx(0x1p-8));
}

TEST_CASE("metrics: NaN on either side is a mismatch, NaN on both sides a match", "[metrics]") {
  const ExactProduct e = reference({std::nan(""), 1.0, std::nan("")});
  const AccuracyMetrics m = measure(std::vector<double>{1.0, std::nan(""), std::nan("")}, e);
  CHECK(m.nan_mismatches == 2);
  CHECK(m.bit_identical == 1);
}

TEST_CASE("metrics: zeros of the reference are counted apart", "[metrics]") {
  const ExactProduct e = reference({0.0, 0.0, 2.0});
  const AccuracyMetrics m = measure(std::vector<double>{-0.0, 1e-300, 2.0}, e);
  CHECK(m.zero_reference_elements == 2);
  CHECK(m.zero_reference_mismatches == 1);
  CHECK(m.bit_identical == 2);  // -0 matches an exactly zero E
  const AccuracyMetrics all_zero = measure(std::vector<double>{0.0, 1e-300, 0.0}, reference({0.0, 0.0, 0.0}));
  CHECK(all_zero.correct_bits_maxnorm == -inf);
  CHECK(all_zero.erring_elements == 1);
  CHECK(std::isnan(all_zero.correct_bits_elementwise_min));  // no E != 0 to measure against
}

TEST_CASE("metrics: infinities must match exactly", "[metrics]") {
  const ExactProduct e = reference({inf, -inf, 1.0});
  const AccuracyMetrics m = measure(std::vector<double>{inf, 1.0, inf}, e);
  CHECK(m.infinity_mismatches == 2);
  CHECK(m.bit_identical == 1);
}

TEST_CASE("metrics: FP32 results are compared with the FP32 rounding", "[metrics]") {
  ExactProduct e = reference({1.0 + 0x1p-30});
  e.nearest_fp32[0] = 1.0f;
  const AccuracyMetrics m = measure(std::vector<float>{1.0f}, e);
  CHECK(m.bit_identical == 1);
  CHECK(m.max_ulp_error == Approx(0x1p-7));  // 2^-30 over FP32's ulp 2^-23
}

TEST_CASE("metrics: C infinite everywhere compares no element: no figure, not 'exact'", "[metrics]") {
  const ExactProduct e = reference({1.0, -2.0, 3.0});
  const AccuracyMetrics m = measure(std::vector<double>{-inf, -inf, -inf}, e);
  CHECK(m.bit_identical == 0);
  CHECK(m.infinity_mismatches == 3);
  CHECK(m.compared_elements == 0);
  CHECK(std::isnan(m.correct_bits_maxnorm));  // undefined, where it used to read +inf ("no error")
  CHECK(std::isnan(m.correct_bits_elementwise_min));
  CHECK(std::isnan(m.max_ulp_error));
}

TEST_CASE("metrics: C infinite where E is NaN is a NaN mismatch, in FP64 and FP32", "[metrics]") {
  const ExactProduct e = reference({std::nan(""), 2.0});
  const AccuracyMetrics m64 = measure(std::vector<double>{inf, 2.0}, e);
  const AccuracyMetrics m32 = measure(std::vector<float>{-std::numeric_limits<float>::infinity(), 2.0f}, e);
  for (const AccuracyMetrics& m : {m64, m32}) {
    CHECK(m.nan_mismatches == 1);
    CHECK(m.infinity_mismatches == 0);
    CHECK(m.bit_identical == 1);
    CHECK(m.compared_elements == 1);
    CHECK(m.correct_bits_maxnorm == inf);  // the one compared element is exact
  }
}

TEST_CASE("metrics: an error beyond the FP64 range of ulps is +inf, not a wrapped number", "[metrics]") {
  const ExactProduct e = reference({0x1p-1074});
  const AccuracyMetrics m = measure(std::vector<double>{std::numeric_limits<double>::max()}, e);
  CHECK(m.max_ulp_error == inf);  // about 2^1024 / 2^-1074 ulps
  CHECK(m.erring_elements == 1);
  CHECK(m.correct_bits_maxnorm == Approx(-2098.0).margin(1.0));
}

namespace {
// The elements `picks` of e, as an ExactProduct of their own.
ExactProduct part_of(const ExactProduct& e, const std::vector<size_t>& picks) {
  ExactProduct p;
  p.rows = 1;
  p.cols = picks.size();
  for (size_t i : picks) {
    p.nearest.push_back(e.nearest[i]);
    p.residual.push_back(e.residual[i]);
    p.residual_exact.push_back(e.residual_exact[i]);
    p.nearest_fp32.push_back(e.nearest_fp32[i]);
  }
  return p;
}

bool same_figure(double x, double y) { return std::isnan(x) ? std::isnan(y) : std::bit_cast<uint64_t>(x) == std::bit_cast<uint64_t>(y); }
}  // namespace

TEST_CASE("metrics: sums of any partition of C merge into measure() of the whole, bit for bit", "[metrics]") {
  // A distributed check measures blocks and merges them (mpi/distributed_verbs.cpp); the figures
  // must not depend on how C was cut, in what order the parts merge, or on empty parts.
  Rng rng(test::seed());
  test::CaseCount partitions("metrics: partitions merged");
  for (int round = 0; round < 200 * int(test::level()); ++round) {
    const size_t n = rng.next() % 40;
    std::vector<double> nearest(n), c(n);
    ExactProduct e = reference(nearest);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t kind = rng.next() % 8;
      const double v = std::ldexp(double(int64_t(rng.next() >> 11)) - 4.5e15, int(rng.next() % 200) - 150);
      e.nearest[i] = kind == 0 ? 0.0 : kind == 1 ? std::nan("") : kind == 2 ? -inf : v;
      e.residual[i] = kind >= 5 ? std::ldexp(v, -60) : 0.0;
      e.residual_exact[i] = kind != 6;
      e.nearest_fp32[i] = static_cast<float>(e.nearest[i]);
      const uint64_t c_kind = rng.next() % 6;
      c[i] = c_kind == 0 ? std::nan("") : c_kind == 1 ? std::nextafter(e.nearest[i], inf) : c_kind == 2 ? -e.nearest[i] : e.nearest[i];
    }
    std::vector<std::vector<size_t>> parts(1 + rng.next() % 5);
    for (size_t i = 0; i < n; ++i) parts[rng.next() % parts.size()].push_back(i);
    for (bool fp32 : {false, true}) {
      std::vector<float> c32(c.begin(), c.end());
      const AccuracyMetrics whole = fp32 ? measure(c32, e) : measure(c, e);
      MetricSums merged;
      for (const auto& picks : parts) {
        std::vector<double> cp;
        for (size_t i : picks) cp.push_back(c[i]);
        std::vector<float> cp32(cp.begin(), cp.end());
        merge_sums(merged, fp32 ? measure_sums(cp32, part_of(e, picks)) : measure_sums(cp, part_of(e, picks)));
      }
      const AccuracyMetrics m = finish_metrics(merged);
      INFO("round " << round << ", n = " << n << ", " << parts.size() << " parts, fp32 " << fp32);
      CHECK(m.elements == whole.elements);
      CHECK(m.bit_identical == whole.bit_identical);
      CHECK(m.compared_elements == whole.compared_elements);
      CHECK(m.erring_elements == whole.erring_elements);
      CHECK(m.zero_reference_elements == whole.zero_reference_elements);
      CHECK(m.zero_reference_mismatches == whole.zero_reference_mismatches);
      CHECK(m.nan_mismatches == whole.nan_mismatches);
      CHECK(m.infinity_mismatches == whole.infinity_mismatches);
      CHECK(same_figure(m.correct_bits_maxnorm, whole.correct_bits_maxnorm));
      CHECK(same_figure(m.correct_bits_elementwise_min, whole.correct_bits_elementwise_min));
      CHECK(same_figure(m.max_ulp_error, whole.max_ulp_error));
      ++partitions;
    }
  }
  partitions.report(400);
}
