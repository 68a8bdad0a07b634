// The comparator behind `ozref check`, on hand-built cases whose answers are known by
// construction (a NaN-blind or zero-blind comparator is the classic bug).
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include <algorithm>
#include <random>

#include "common/rng.hpp"
#include "exact/metrics.hpp"
#include "exact/rational_oracle.hpp"
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

namespace {
// log2 of a positive rational, through GMP's floats (independent of the 80-bit arithmetic of metrics.cpp).
double log2_of(const mpq_class& q) {
  const mpf_class f(q, 256);
  long exponent = 0;
  const double mantissa = mpf_get_d_2exp(&exponent, f.get_mpf_t());
  return double(exponent) + std::log2(mantissa);
}

mpq_class rational_of(double x) {
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), x);
  return q;
}

// ulp(x) of a finite FP64 x, as a rational: 2^(max(exponent, -1022) - 52).
mpq_class ulp_rational(double x) {
  int e = 0;
  std::frexp(x, &e);
  return oracle::pow2(x == 0 ? -1074 : std::max(e - 1, -1022) - 52);
}

// The figures of `ozref check` from their definitions, over GMP rationals: E exact, |C - E| exact.
struct ExpectedFigures {
  size_t erring = 0;
  double maxnorm = std::numeric_limits<double>::infinity(), elementwise = std::numeric_limits<double>::infinity();
  double ulps = 0;
  size_t worst_abs = 0, worst_rel = 0;  // flat indices (first among equals)
};

ExpectedFigures expected_figures(const std::vector<double>& c, const Matrix<oracle::ExactElement>& ref) {
  ExpectedFigures f;
  mpq_class max_err = 0, max_ref = 0, max_rel = 0, max_ulps = 0;
  for (size_t i = 0; i < c.size(); ++i) {
    const mpq_class& exact = ref.data[i].value;
    const mpq_class err = abs(rational_of(c[i]) - exact);
    if (abs(exact) > max_ref) max_ref = abs(exact);
    if (err == 0) continue;
    ++f.erring;
    if (err > max_err) max_err = err, f.worst_abs = i;
    const mpq_class ulps = err / ulp_rational(oracle::to_double(ref.data[i]));
    if (ulps > max_ulps) max_ulps = ulps;
    if (exact != 0 && err / abs(exact) > max_rel) max_rel = err / abs(exact), f.worst_rel = i;
  }
  if (max_err != 0) f.maxnorm = log2_of(max_ref) - log2_of(max_err), f.ulps = max_ulps.get_d();
  if (max_rel != 0) f.elementwise = -log2_of(max_rel);
  return f;
}
}  // namespace

TEST_CASE("metrics: the example of a product below 2^-1022 is measured against E, not round(E)", "[metrics]") {
  // E = 1.43 * 2^-1074 rounds to 2^-1074 = C, which is still 0.43 units of 2^-1074 from E.
  Matrix<double> a(1, 1, std::ldexp(1.1, -537)), b(1, 1, std::ldexp(1.3, -537));
  const ExactProduct e = exact_gemm(a, b);
  const AccuracyMetrics m = measure(std::vector<double>{0x1p-1074}, e);
  const mpq_class exact = rational_of(a.data[0]) * rational_of(b.data[0]);
  const double bits = log2_of(exact) - log2_of(abs(rational_of(0x1p-1074) - exact));
  CHECK(bits == Approx(1.73).margin(0.01));  // the figure the issue quotes, from the definition
  CHECK(m.bit_identical == 1);
  CHECK(m.erring_elements == 1);
  CHECK(m.correct_bits_maxnorm == Approx(bits).epsilon(1e-12));
  CHECK(m.correct_bits_elementwise_min == Approx(bits).epsilon(1e-12));
  REQUIRE(m.worst_maxnorm.present);
  CHECK(m.worst_maxnorm.ulps == Approx(mpq_class(abs(rational_of(0x1p-1074) - exact) / oracle::pow2(-1074)).get_d()).epsilon(1e-15));
}

TEST_CASE("metrics: every figure from the exact rationals across FP64's subnormal range and its boundary", "[metrics]") {
  Rng rng(test::seed());
  test::CaseCount cases("metrics: products in and near the subnormal range, against GMP");
  for (int round = 0; round < 150 * int(test::level()); ++round) {
    const size_t m = 1 + rng.below(4), n = 1 + rng.below(4), k = 1 + rng.below(6);
    // Products 2^-1130 .. 2^-960: wholly subnormal, across 2^-1022, and normal but with residuals
    // that an FP64 residual would lose.
    const int centre = -1045 + int(rng.below(90));
    Matrix<double> a(m, k), b(k, n);
    for (double& x : a.data) x = std::ldexp(rng.uniform() - 0.5, centre / 2 + int(rng.below(21)) - 10);
    for (double& x : b.data) x = std::ldexp(rng.uniform() - 0.5, centre - centre / 2 + int(rng.below(21)) - 10);
    const Matrix<oracle::ExactElement> ref = oracle::gemm(a, b);
    std::vector<double> c(m * n);
    for (size_t i = 0; i < c.size(); ++i) {
      const double r = oracle::to_double(ref.data[i]);
      const uint64_t kind = rng.below(6);
      c[i] = kind == 0 ? std::nextafter(r, 1.0) : kind == 1 ? std::nextafter(r, -1.0) : kind == 2 ? 0.0
           : kind == 3 ? r + std::ldexp(double(rng.below(64)), -1074) : r;
    }
    const ExactProduct e = exact_gemm(a, b, {.threads = 1});
    const AccuracyMetrics got = measure(c, e);
    const ExpectedFigures want = expected_figures(c, ref);
    INFO("round " << round << ", " << m << "x" << k << "x" << n << ", products near 2^" << centre);
    REQUIRE(got.compared_elements == c.size());
    REQUIRE(got.erring_elements == want.erring);
    if (std::isinf(want.maxnorm)) REQUIRE(got.correct_bits_maxnorm == want.maxnorm);
    else REQUIRE(got.correct_bits_maxnorm == Approx(want.maxnorm).margin(1e-9));
    if (std::isinf(want.elementwise)) REQUIRE(got.correct_bits_elementwise_min == want.elementwise);
    else REQUIRE(got.correct_bits_elementwise_min == Approx(want.elementwise).margin(1e-9));
    REQUIRE(got.max_ulp_error == Approx(want.ulps).epsilon(1e-12));
    if (want.erring) {
      REQUIRE(got.worst_maxnorm.row * n + got.worst_maxnorm.col == want.worst_abs);
      REQUIRE(got.worst_maxnorm.c == c[want.worst_abs]);
    }
    if (std::isfinite(want.elementwise)) REQUIRE(got.worst_elementwise.row * n + got.worst_elementwise.col == want.worst_rel);
    cases += c.size();
  }
  cases.report(300);
}

TEST_CASE("metrics: the worst elements and the first special mismatch are named by their place in the whole C", "[metrics]") {
  // A distributed check measures blocks at their places (PartPlace) and merges them: the places
  // must be those of one measure() over the whole, whatever the cut and the merge order.
  Rng rng(test::seed());
  test::CaseCount blocks("metrics: blocks merged with their places");
  for (int round = 0; round < 100 * int(test::level()); ++round) {
    const size_t rows = 1 + rng.below(6), cols = 1 + rng.below(6);
    std::vector<double> nearest(rows * cols), c(rows * cols);
    for (size_t i = 0; i < c.size(); ++i) {
      nearest[i] = std::ldexp(1.0 + double(rng.below(8)), int(rng.below(4)));
      const uint64_t kind = rng.below(8);
      c[i] = kind == 0 ? std::nan("") : kind < 3 ? nearest[i] * (1 + std::ldexp(1.0, -int(rng.below(3)) - 20)) : nearest[i];
    }
    ExactProduct e = reference(nearest);
    e.rows = rows, e.cols = cols;
    const AccuracyMetrics whole = measure(c, e);
    const size_t row_cut = rng.below(rows + 1), col_cut = rng.below(cols + 1);
    std::vector<MetricSums> parts;
    for (auto [r0, r1] : {std::pair{size_t{0}, row_cut}, std::pair{row_cut, rows}})
      for (auto [c0, c1] : {std::pair{size_t{0}, col_cut}, std::pair{col_cut, cols}}) {
        ExactProduct p = reference(std::vector<double>((r1 - r0) * (c1 - c0)));
        std::vector<double> cp;
        for (size_t i = r0, t = 0; i < r1; ++i)
          for (size_t j = c0; j < c1; ++j, ++t) p.nearest[t] = nearest[i * cols + j], cp.push_back(c[i * cols + j]);
        p.rows = r1 - r0, p.cols = c1 - c0;
        parts.push_back(measure_sums(cp, p, {r0, c0, 0}));
      }
    std::shuffle(parts.begin(), parts.end(), std::mt19937(uint32_t(rng.next())));
    MetricSums merged;
    for (const MetricSums& p : parts) merge_sums(merged, p);
    const AccuracyMetrics m = finish_metrics(merged);
    INFO("round " << round << ", " << rows << "x" << cols << " cut at " << row_cut << ", " << col_cut);
    for (auto [got, want] : {std::pair{m.worst_maxnorm, whole.worst_maxnorm}, std::pair{m.worst_elementwise, whole.worst_elementwise}}) {
      REQUIRE(got.present == want.present);
      REQUIRE(got.row == want.row);
      REQUIRE(got.col == want.col);
    }
    REQUIRE(m.first_special_mismatch.kind == whole.first_special_mismatch.kind);
    REQUIRE(m.first_special_mismatch.row == whole.first_special_mismatch.row);
    REQUIRE(m.first_special_mismatch.col == whole.first_special_mismatch.col);
    // And the whole's places from their definitions: the first NaN, the first largest error.
    size_t first_nan = c.size(), worst = c.size();
    double worst_err = 0;
    for (size_t i = 0; i < c.size(); ++i) {
      if (std::isnan(c[i])) first_nan = std::min(first_nan, i);
      else if (std::fabs(c[i] - nearest[i]) > worst_err) worst_err = std::fabs(c[i] - nearest[i]), worst = i;
    }
    REQUIRE((whole.first_special_mismatch.kind == SpecialMismatch::Kind::Nan) == (first_nan < c.size()));
    if (first_nan < c.size()) REQUIRE(whole.first_special_mismatch.row * cols + whole.first_special_mismatch.col == first_nan);
    REQUIRE(whole.worst_maxnorm.present == (worst < c.size()));
    if (worst < c.size()) REQUIRE(whole.worst_maxnorm.row * cols + whole.worst_maxnorm.col == worst);
    ++blocks;
  }
  blocks.report(100);
}
