// The shrinker against predicates whose smallest failing case is known by construction.
#include <cmath>

#include "common/distributions.hpp"
#include "fuzz/shrink.hpp"
#include "support.hpp"

namespace ozref::fuzz {
namespace {

Matrix<double> randn(size_t rows, size_t cols, Rng& rng) { return random_matrix(rows, cols, {Distribution::Randn, 0}, rng); }

Verdict failing() {
  Verdict v;
  v.failed = Property::Accuracy;
  return v;
}

TEST_CASE("shrink: a failure that needs K > 8 shrinks to 1x1x9 of zeros") {
  test::CaseCount cases("shrink to K = 9");
  Rng rng(test::seed());
  for (int round = 0; round < 4; ++round, ++cases) {
    const size_t m = 1 + rng.below(16), n = 1 + rng.below(16), k = 9 + rng.below(56);
    const StillFails k_past_8 = [](const Matrix<double>& a, const Matrix<double>&) { return a.cols > 8 ? std::optional(failing()) : std::nullopt; };
    const Shrunk s = shrink(k_past_8, randn(m, k, rng), randn(k, n, rng), failing(), {});
    // The smallest case the predicate fails on: one row, one column, K = 9, and nothing in it matters.
    CHECK(s.a.rows == 1);
    CHECK(s.b.cols == 1);
    CHECK(s.a.cols == 9);
    CHECK(s.b.rows == 9);
    for (double x : s.a.data) CHECK(x == 0);
    for (double x : s.b.data) CHECK(x == 0);
    CHECK_FALSE(s.budget_ran_out);
    CHECK(!s.steps.empty());
  }
  cases.report(4);
}

TEST_CASE("shrink: a failure that needs one large element keeps that element alone, as a power of two") {
  test::CaseCount cases("shrink to one large element");
  Rng rng(test::seed() + 1);
  for (int round = 0; round < 4; ++round, ++cases) {
    Matrix<double> a = randn(1 + rng.below(8), 1 + rng.below(32), rng), b = randn(a.cols, 1 + rng.below(8), rng);
    a.data[rng.below(a.size())] = std::ldexp(1.2345, 60 + static_cast<int>(rng.below(200)));
    const StillFails has_large = [](const Matrix<double>& x, const Matrix<double>&) {
      for (double v : x.data)
        if (std::fabs(v) >= 0x1p40) return std::optional(failing());
      return std::optional<Verdict>();
    };
    const Shrunk s = shrink(has_large, a, b, failing(), {});
    REQUIRE(s.a.size() == 1);
    CHECK(s.b.cols == 1);
    CHECK(s.b.data == std::vector<double>{0.0});
    const double v = std::fabs(s.a.data[0]);
    int e = 0;
    CHECK(std::frexp(v, &e) == 0.5);  // one mantissa bit
    CHECK(v >= 0x1p40);
    CHECK(v < 0x1p80);  // moved toward 1 while the failure persisted (from 2^60 and up)
  }
  cases.report(4);
}

TEST_CASE("shrink: the attempt budget stops it, and the case it returns still fails") {
  Rng rng(test::seed() + 2);
  size_t calls = 0;
  const StillFails k_past_8 = [&](const Matrix<double>& a, const Matrix<double>&) {
    ++calls;
    return a.cols > 8 ? std::optional(failing()) : std::nullopt;
  };
  const Shrunk s = shrink(k_past_8, randn(16, 64, rng), randn(64, 16, rng), failing(), {.attempts = 5});
  CHECK(s.budget_ran_out);
  CHECK(s.attempts == 5);
  CHECK(calls == 5);
  CHECK(s.a.cols > 8);
}

TEST_CASE("with_mantissa_bits rounds to nearest with ties away from zero") {
  CHECK(with_mantissa_bits(1.75, 1) == 2.0);    // 0.875 * 2 = 1.75 -> 2
  CHECK(with_mantissa_bits(1.25, 2) == 1.5);    // 0.625 * 4 = 2.5 -> 3, 3 * 2^-1
  CHECK(with_mantissa_bits(-1.2, 1) == -1.0);   // -0.6 * 2 = -1.2 -> -1
  CHECK(with_mantissa_bits(0x1.fp-1060, 4) == 0x1p-1059);  // a subnormal: 15.5 * 2^-1064 rounds up into the next binade
  CHECK(with_mantissa_bits(0.0, 1) == 0.0);
  CHECK(std::isinf(with_mantissa_bits(INFINITY, 1)));
}

}  // namespace
}  // namespace ozref::fuzz
