// The fast exact GEMM (both its modular path and its direct path) against the GMP oracle on every
// class of input: wide exponent spread, subnormals, cancellation to exactly zero, results at exact
// rounding ties, K = 1, empty dimensions, integers near 2^53, NaN and infinities.
#include <bit>
#include <cmath>
#include <limits>

#include "common/distributions.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/int8_residue_gemm.hpp"
#include "exact/rational_oracle.hpp"
#include "support.hpp"

using namespace ozref;
using ozref::test::CaseCount;

namespace {

bool same_value(double got, double expect) {
  if (std::isnan(expect)) return std::isnan(got);
  return std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(expect);
}
bool same_value(float got, float expect) {
  if (std::isnan(expect)) return std::isnan(got);
  return std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(expect);
}
// The 80-bit residuals: equal values of equal sign (their 16-byte storage has padding bytes).
bool same_value(long double got, long double expect) {
  if (std::isnan(expect)) return std::isnan(got);
  return got == expect && std::signbit(got) == std::signbit(expect);
}

mpq_class exact(double x) {
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), x);
  return q;
}

// Whether r (an 80-bit value, significand S times 2^e with S < 2^64) is x rounded to odd at 64
// bits, and `exact` says whether it equals x: when inexact, S is odd, has all 64 bits, and lies
// within one unit 2^e of x on x's side of zero (the one such odd multiple).
bool is_rounded_to_odd(long double r, const mpq_class& x, bool exact) {
  int e = 0;
  const long double fraction = std::frexp(r, &e);  // r = fraction * 2^e, fraction in [0.5, 1)
  const uint64_t s = static_cast<uint64_t>(std::fabs(std::ldexp(fraction, 64)));
  mpq_class value(mpz_class(std::to_string(s)));
  value *= oracle::pow2(e - 64);
  if (r < 0) value = -value;
  if (exact) return value == x;
  const mpq_class distance = abs(x - value);
  return (s & 1) && (s >> 63) && distance < oracle::pow2(e - 64) && sgn(x) == sgn(value);
}

// Checks every element of the fast product against the oracle: FP64 and FP32 rounding, and the
// residual (nearest + residual == E exactly when residual_exact, else residual == round(E - nearest)).
void check_against_oracle(const Matrix<double>& a, const Matrix<double>& b, CaseCount& cases) {
  const Matrix<oracle::ExactElement> ref = oracle::gemm(a, b);
  for (bool direct : {false, true}) {
    const ExactProduct e = exact_gemm(a, b, {.threads = 2, .method = direct ? ExactMethod::Direct : ExactMethod::Modular});
    REQUIRE(e.nearest.size() == ref.size());
    REQUIRE(e.direct_path == (direct || e.nearest.empty()));
    for (size_t i = 0; i < ref.size(); ++i) {
      const oracle::ExactElement& r = ref.data[i];
      INFO("element " << i << (direct ? " (direct path)" : " (modular path)") << " of "
                      << a.rows << "x" << a.cols << "x" << b.cols);
      REQUIRE(same_value(e.nearest[i], oracle::to_double(r)));
      REQUIRE(same_value(e.nearest_fp32[i], oracle::to_float(r)));
      if (r.kind == oracle::ExactElement::Finite && std::isfinite(e.nearest[i])) {
        const mpq_class rest = r.value - exact(e.nearest[i]);
        oracle::ExactElement rest_element;
        rest_element.value = rest;
        if (rest == 0) REQUIRE(e.residual[i] == 0.0L);
        else REQUIRE(same_value(static_cast<double>(e.residual[i]), oracle::to_double(rest_element)));
        REQUIRE(is_rounded_to_odd(e.residual[i], rest, e.residual_exact[i]));
      }
      ++cases;
    }
  }
}

Matrix<double> wide_spread(size_t r, size_t c, Rng& rng, int spread) {
  Matrix<double> m(r, c);
  for (auto& x : m.data) {
    const double s = rng.uniform() - 0.5;
    x = std::ldexp(s, static_cast<int>(rng.below(2 * spread + 1)) - spread);
  }
  return m;
}

}  // namespace

TEST_CASE("exact gemm: phi-distributed data matches the oracle", "[exact]") {
  Rng rng(test::seed());
  CaseCount cases("elements (phi data)");
  for (double phi : {0.0, 1.0, 4.0}) {
    for (size_t k : {1, 7, 64}) {
      const Distribution d{Distribution::Phi, phi};
      check_against_oracle(random_matrix(5, k, d, rng), random_matrix(k, 6, d, rng), cases);
    }
  }
  cases.report(2 * 9 * 30);
}

TEST_CASE("exact gemm: wide exponent spread, up to the whole FP64 range", "[exact]") {
  Rng rng(test::seed() + 1);
  CaseCount cases("elements (wide spread)");
  for (int spread : {30, 200, 1000}) {
    check_against_oracle(wide_spread(4, 9, rng, spread), wide_spread(9, 5, rng, spread), cases);
  }
  cases.report(2 * 3 * 20);
}

TEST_CASE("exact gemm: subnormal inputs and results that underflow", "[exact]") {
  Rng rng(test::seed() + 2);
  CaseCount cases("elements (subnormals)");
  Matrix<double> a(4, 6), b(6, 3);
  for (auto& x : a.data) x = std::bit_cast<double>(rng.next() & 0x800FFFFFFFFFFFFFULL);  // subnormal
  for (size_t i = 0; i < b.size(); ++i)
    b.data[i] = i % 2 ? std::ldexp(rng.uniform() - 0.5, -20) : std::ldexp(rng.uniform(), 1000);
  check_against_oracle(a, b, cases);
  // Products far below the smallest subnormal: the result rounds to zero or the minimum.
  Matrix<double> c(2, 2, 0x1p-1074), d(2, 2, 0x1p-30);
  d(0, 0) = -0x1p-30;
  check_against_oracle(c, d, cases);
  cases.report(2 * 12 + 2 * 4);
}

TEST_CASE("exact gemm: cancellation to exactly zero and near-cancellation", "[exact]") {
  CaseCount cases("elements (cancellation)");
  Matrix<double> a(2, 4), b(4, 2);
  a.data = {1e300, 1.0, -1e300, 0x1p-1074, 3.0, 0x1p-60, -3.0, -0x1p-60};
  b.data = {1.0, 1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 0x1p-1000};
  check_against_oracle(a, b, cases);
  cases.report(8);
}

TEST_CASE("exact gemm: exact rounding ties in FP64 and FP32", "[exact]") {
  CaseCount cases("elements (ties)");
  Matrix<double> a(3, 2), b(2, 3);
  // 1 + 2^-53 (tie to even: 1), 1 + 3*2^-53 (tie: up), 1 + 2^-24 (FP32 tie), with sticky variants.
  a.data = {1.0, 1.0, 1.0, 3.0, 1.0, 0x1p-24};
  b.data = {1.0, 1.0, 1.0, 0x1p-53, 0x1p-53 + 0x1p-105, 0x1p-24};
  check_against_oracle(a, b, cases);
  cases.report(18);
}

TEST_CASE("exact gemm: integers near 2^53 are exact and the results past 2^53 round correctly", "[exact]") {
  Rng rng(test::seed() + 3);
  CaseCount cases("elements (integers)");
  Matrix<double> a(6, 33), b(33, 4);
  for (auto& x : a.data) x = static_cast<double>((rng.next() >> 11) | 1) * (rng.below(2) ? 1 : -1);
  for (auto& x : b.data) x = static_cast<double>(rng.next() >> 11);
  check_against_oracle(a, b, cases);
  cases.report(2 * 24);
}

TEST_CASE("exact gemm: K = 1, empty dimensions and all-zero operands", "[exact]") {
  CaseCount cases("shapes");
  Rng rng(test::seed() + 4);
  const Distribution d{Distribution::Randn, 0};
  check_against_oracle(random_matrix(3, 1, d, rng), random_matrix(1, 4, d, rng), cases);
  for (auto [m, k, n] : {std::tuple{0, 3, 2}, {3, 0, 2}, {3, 2, 0}, {0, 0, 0}}) {
    const ExactProduct e = exact_gemm(Matrix<double>(m, k), Matrix<double>(k, n));
    REQUIRE(e.nearest.size() == size_t(m) * n);
    for (double v : e.nearest) REQUIRE(std::bit_cast<uint64_t>(v) == 0);  // K = 0: +0
    ++cases;
  }
  check_against_oracle(Matrix<double>(2, 3, 0.0), random_matrix(3, 2, d, rng), cases);
  cases.report(2 * 12 + 4 + 2 * 4);
}

TEST_CASE("exact gemm: NaN and infinity follow the IEEE rules", "[exact]") {
  CaseCount cases("elements (specials)");
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  Matrix<double> a(5, 2), b(2, 4);
  a.data = {inf, 1.0,  -inf, 1.0,  nan, 0.0,  inf, 0.0,  1e308, 1e308};
  b.data = {1.0, inf, 0.0, 1e308, 2.0, -inf, 1.0, 1e308};
  check_against_oracle(a, b, cases);
  const ExactProduct e = exact_gemm(a, b);
  CHECK(std::isnan(e.nearest[1]));        // inf*inf + 1*(-inf) = +inf - inf
  CHECK(std::isnan(e.nearest[2]));        // inf*0
  CHECK(e.nearest[0] == inf);             // inf*1 + 1*2
  CHECK(e.nearest[4 * 4 + 3] == inf);     // 1e308*1e308*2: finite exact, overflows when rounded
  CHECK(e.residual_exact[4 * 4 + 3] == 0);
  cases.report(2 * 20);
}

TEST_CASE("exact gemm: results do not depend on the thread count", "[exact]") {
  Rng rng(test::seed() + 5);
  const Distribution d{Distribution::Phi, 2.0};
  const Matrix<double> a = random_matrix(37, 70, d, rng), b = random_matrix(70, 29, d, rng);
  const ExactProduct one = exact_gemm(a, b, {.threads = 1});
  const ExactProduct two = exact_gemm(a, b, {.threads = 2});
  const ExactProduct three = exact_gemm(a, b, {.threads = 3});
  REQUIRE(one.nearest.size() == 37 * 29);
  for (size_t i = 0; i < one.nearest.size(); ++i) {
    REQUIRE(same_value(one.nearest[i], two.nearest[i]));
    REQUIRE(same_value(one.nearest[i], three.nearest[i]));
    REQUIRE(same_value(one.residual[i], three.residual[i]));
  }
}

TEST_CASE("exact gemm: larger random problems agree between the modular path and the direct path", "[exact]") {
  Rng rng(test::seed() + 6);
  CaseCount cases("elements (modular vs direct)");
  for (double phi : {0.5, 4.0}) {
    const Distribution d{Distribution::Phi, phi};
    const Matrix<double> a = random_matrix(40, 300, d, rng), b = random_matrix(300, 30, d, rng);
    const ExactProduct s = exact_gemm(a, b);
    const ExactProduct t = exact_gemm(a, b, {.method = ExactMethod::Direct});
    REQUIRE_FALSE(s.direct_path);
    for (size_t i = 0; i < s.nearest.size(); ++i) {
      REQUIRE(same_value(s.nearest[i], t.nearest[i]));
      REQUIRE(same_value(s.residual[i], t.residual[i]));
      REQUIRE(s.residual_exact[i] == t.residual_exact[i]);
      REQUIRE(same_value(s.nearest_fp32[i], t.nearest_fp32[i]));
      ++cases;
    }
  }
  cases.report(2 * 1200);
}

TEST_CASE("exact gemm: a product over the modular path's memory runs in panels of C, bit for bit the direct path's", "[exact]") {
  Rng rng(test::seed() + 9);
  CaseCount cases("elements (panels vs direct)");
  size_t expected = 0;
  // Budgets that force 2 to many panels, the last ones partial (shapes multiples of nothing).
  for (auto [m, k, n, budget] : {std::tuple{61, 90, 47, 150e3}, {61, 90, 47, 40e3}, {9, 300, 130, 60e3}}) {
    const Matrix<double> a = random_matrix(m, k, Distribution{Distribution::Phi, 2.0}, rng), b = random_matrix(k, n, Distribution{Distribution::Phi, 2.0}, rng);
    const ExactProduct panelled = exact_gemm(a, b, {.threads = 2, .method = ExactMethod::Modular, .max_modular_bytes = budget});
    const ExactProduct whole = exact_gemm(a, b, {.threads = 2, .method = ExactMethod::Modular});
    const ExactProduct direct = exact_gemm(a, b, {.method = ExactMethod::Direct});
    REQUIRE_FALSE(panelled.direct_path);
    REQUIRE(panelled.panels > 1);
    REQUIRE(whole.panels == 1);
    for (size_t i = 0; i < direct.nearest.size(); ++i) {
      REQUIRE(same_value(panelled.nearest[i], direct.nearest[i]));
      REQUIRE(same_value(panelled.residual[i], direct.residual[i]));
      REQUIRE(panelled.residual_exact[i] == direct.residual_exact[i]);
      REQUIRE(same_value(panelled.nearest_fp32[i], direct.nearest_fp32[i]));
      REQUIRE(same_value(whole.nearest[i], direct.nearest[i]));
      ++cases;
    }
    expected += size_t(m) * size_t(n);
  }
  // A budget below any panel leaves the product to the direct path.
  const Matrix<double> a = random_matrix(5, 40, Distribution{Distribution::Randn, 0}, rng), b = random_matrix(40, 6, Distribution{Distribution::Randn, 0}, rng);
  REQUIRE(exact_gemm(a, b, {.method = ExactMethod::Modular, .max_modular_bytes = 100}).direct_path);
  cases.report(expected);
}

TEST_CASE("exact gemm: hostile data in shapes that are multiples of nothing", "[exact]") {
  Rng rng(test::seed() + 7);
  CaseCount cases("elements (hostile)");
  const double inf = std::numeric_limits<double>::infinity();
  const Distribution d{Distribution::Randn, 0};
  for (auto [m, k, n] : {std::tuple{37, 53, 29}, {13, 1, 11}, {3, 257, 5}}) {
    Matrix<double> a = random_matrix(m, k, d, rng), b = random_matrix(k, n, d, rng);
    // Rows of A and columns of B scaled by 2^+-1000 (their products in range or far outside it),
    // a subnormal row and column, a few NaNs, infinities and zeros.
    for (size_t i = 0; i < a.rows; ++i)
      for (size_t kk = 0; kk < a.cols; ++kk)
        a(i, kk) = std::ldexp(a(i, kk), i % 4 == 1 ? 1000 : i % 4 == 2 ? -1000 : i % 4 == 3 ? -1070 : 0);
    for (size_t kk = 0; kk < b.rows; ++kk)
      for (size_t j = 0; j < b.cols; ++j)
        b(kk, j) = std::ldexp(b(kk, j), j % 3 == 1 ? -1000 : j % 3 == 2 ? 1000 : 0);
    for (int s = 0; s < 3; ++s) {
      a.data[rng.below(a.size())] = s == 0 ? std::nan("") : s == 1 ? inf : 0.0;
      b.data[rng.below(b.size())] = s == 0 ? -inf : s == 1 ? 0.0 : -0.0;
    }
    check_against_oracle(a, b, cases);
  }
  cases.report(2 * (37 * 29 + 13 * 11 + 3 * 5));
}

TEST_CASE("exact gemm: residuals at the edge of what the top 128 bits decide", "[exact]") {
  // E = 1 + s 2^-e + tail: the residual is s 2^-e + tail, |d| = 2^(127 - e) in units of the
  // 128-bit window's last bit, on both sides of the 2^64 below which bits under the window would
  // fall inside the residual's 64 (e = 63), and of the 2^55 where FP64's rounding alone would need
  // them (e = 72), with a tail inside the window, below it, or none.
  CaseCount cases("elements (window residuals)");
  const std::vector<double> tails = {0.0, 0x1p-110, -0x1p-110, 0x1p-140, -0x1p-140};
  Matrix<double> a(2 * 16 * tails.size(), 3), b(3, 2, 1.0);
  b(2, 1) = -1.0;  // the second column negates the tail
  size_t row = 0;
  for (int e = 60; e <= 75; ++e)
    for (double s : {1.0, -1.0})
      for (double tail : tails) {
        a(row, 0) = 1.0;
        a(row, 1) = std::ldexp(s, -e);
        a(row, 2) = tail;
        ++row;
      }
  check_against_oracle(a, b, cases);
  cases.report(2 * a.rows * 2);
}

TEST_CASE("exact gemm: the moduli count at its boundaries, the 2-norm bound deciding", "[exact]") {
  // Integer data (lowest bit 0): the integer product is the product. Rows (x, y, 1) with y = x / 2^7
  // and B = [r, -r] for the first row r, so |C| reaches S = x^2 + y^2 + 1 = ||r||^2, Cauchy-Schwarz's
  // bound, while the sum-times-largest bound is about 2^-7 larger. t int8 moduli cover a bound of T
  // bits where 2^(T + 1.001) <= their product; S just below 2^T must take t moduli (the other bound
  // would need t + 1), S just above 2^T t + 1. The oracle checks every element.
  CaseCount cases("elements (moduli boundaries)");
  const std::vector<uint32_t>& moduli = int8_moduli();
  double log2_product = 0;
  for (size_t t = 1; t <= 13; ++t) {
    log2_product += std::log2(double(moduli[t - 1]));
    const int T = int(std::floor(log2_product - 1.001));
    if (T < 20) continue;
    for (double side : {-1.0, 1.0}) {
      const double x = std::floor(std::sqrt(std::ldexp(1.0 + side * 0x1p-12, T)));
      const double y = std::floor(x / 128);
      Matrix<double> a(2, 3), b(3, 2);
      a.data = {x, y, 1.0, y, 1.0, x};
      b.data = {x, -x, y, -y, 1.0, -1.0};
      INFO("t = " << t << ", T = " << T << ", x = " << x);
      const ExactProduct e = exact_gemm(a, b, {.threads = 1, .method = ExactMethod::Modular});
      REQUIRE_FALSE(e.direct_path);
      REQUIRE(e.moduli == int(side < 0 ? t : t + 1));
      check_against_oracle(a, b, cases);
    }
  }
  cases.report(2 * 11 * 2 * 4);
}
