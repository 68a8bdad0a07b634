// The comparator behind `ozref check`, on hand-built cases whose answers are known by
// construction (a NaN-blind or zero-blind comparator is the classic bug).
#include <cmath>
#include <limits>

#include "exact/metrics.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
ExactProduct reference(std::vector<double> nearest) {
  ExactProduct e;
  e.rows = 1;
  e.cols = nearest.size();
  e.depth = 1;
  e.nearest = nearest;
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
