// ozaki1-fp4 (base-13 digit slices) end to end, and the fused INT32 accumulation of ozaki1-int8:
// exact where every nonzero digit product is kept (bit-identical to the exact product, checked by
// the independent exact GEMM), scale invariance, accuracy growing with p.
#include <bit>
#include <cmath>

#include "common/distributions.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "scheme_support.hpp"

using namespace ozref;
using namespace ozref::schemes;
using ozref::test::require_all_verified;

namespace {
// 2197 y with |y| <= 7: with p = 5 digits, every nonzero digit product is kept (first test case).
Matrix<double> multiples_of_13_cubed(size_t rows, size_t cols, Rng& rng) {
  Matrix<double> x = random_matrix(rows, cols, {Distribution::Integers, 7}, rng);
  for (double& v : x.data) v *= 2197;
  return x;
}
}  // namespace

TEST_CASE("ozaki1-fp4: multiples of 13^3 keep all their digit products and are reproduced bit for bit", "[schemes]") {
  // With p = 5 and |y| <= 7, s = 15 - ilogb(2197 max|y|) >= 2, so X = 2197 (y 2^s) is an integer
  // with three zero low digits and |y 2^s| < 32 <= X_2 in the top two, whose products
  // (t + u <= 2) are all kept.
  Rng rng(test::seed() + 30);
  test::CaseCount cases("ozaki1-fp4 exact runs");
  for (const std::string arch : {"ideal", "sm_100", "sm_120"}) {
    const Matrix<double> a = multiples_of_13_cubed(6, 50, rng), b = multiples_of_13_cubed(50, 5, rng);
    Ozaki1Options o;
    o.variant = Ozaki1Variant::Fp4;
    o.slices = 5;
    o.arch = arch;
    const SchemeResult r = run_ozaki1(a, b, o, nullptr);
    INFO(arch);
    require_all_verified(r);
    REQUIRE(r.exact);
    REQUIRE(r.low_precision_gemms == 15);
    REQUIRE(r.accuracy.bit_identical == r.accuracy.elements);
    ++cases;
  }
  cases.report(3);
}

TEST_CASE("ozaki1-fp4: accuracy grows with the digit count, power-of-two scaling scales C exactly", "[schemes]") {
  Rng rng(test::seed() + 31);
  const Distribution d{Distribution::Phi, 1.0};
  const Matrix<double> a = random_matrix(5, 40, d, rng), b = random_matrix(40, 4, d, rng);
  Matrix<double> a2 = a, b2 = b;
  for (size_t k = 0; k < 40; ++k) {
    a2(1, k) = std::ldexp(a(1, k), 99);
    b2(k, 3) = std::ldexp(b(k, 3), -250);
  }
  double previous = 0;
  for (size_t p : {4, 8, 12, 16}) {
    Ozaki1Options o;
    o.variant = Ozaki1Variant::Fp4;
    o.slices = p;
    const SchemeResult r1 = run_ozaki1(a, b, o, nullptr), r2 = run_ozaki1(a2, b2, o, nullptr);
    require_all_verified(r1);
    INFO("p = " << p << ": " << r1.accuracy.correct_bits_maxnorm << " bits");
    REQUIRE(r1.accuracy.correct_bits_maxnorm > previous + 5);  // about 3.7 bits per digit
    previous = r1.accuracy.correct_bits_maxnorm;
    for (size_t i = 0; i < 5; ++i)
      for (size_t j = 0; j < 4; ++j) REQUIRE(r2.c(i, j) == std::ldexp(r1.c(i, j), (i == 1 ? 99 : 0) + (j == 3 ? -250 : 0)));
  }
  REQUIRE(previous > 44);
}

TEST_CASE("ozaki1-int8: the fused INT32 accumulation equals the exact one where the slice width is the same", "[schemes]") {
  // K = 64: w = 7 with one accumulator per product or per shift (4 x 64 products).
  Rng rng(test::seed() + 32);
  const Distribution d{Distribution::Phi, 2.0};
  const Matrix<double> a = random_matrix(7, 64, d, rng), b = random_matrix(64, 6, d, rng);
  Ozaki1Options o;
  o.slices = 4;
  const SchemeResult exact = run_ozaki1(a, b, o, nullptr);
  o.accumulation = Accumulation::Fused;
  const SchemeResult fused = run_ozaki1(a, b, o, nullptr);
  require_all_verified(fused);
  REQUIRE(fused.exact);
  REQUIRE(fused.low_precision_gemms == exact.low_precision_gemms);
  REQUIRE(fused.c.data == exact.c.data);
}

TEST_CASE("ozaki1-fp4 and ozaki2-fp4 agree bit for bit where both are exact", "[schemes]") {
  // Multiples of 13^3 with p = 5 digits (every nonzero digit product kept) and integers far inside
  // the 19-modulus CRT range: both reproduce the exact product, so both must give the same bits.
  Rng rng(test::seed() + 33);
  for (const std::string arch : {"ideal", "sm_100", "sm_120"}) {
    const Matrix<double> a = multiples_of_13_cubed(5, 40, rng), b = multiples_of_13_cubed(40, 4, rng);
    Ozaki1Options o1;
    o1.variant = Ozaki1Variant::Fp4;
    o1.slices = 5;
    o1.arch = arch;
    Ozaki2Options o2;
    o2.variant = Ozaki2Variant::Fp4;
    o2.arch = arch;
    const SchemeResult r1 = run_ozaki1(a, b, o1, nullptr), r2 = run_ozaki2(a, b, o2, nullptr);
    INFO(arch);
    REQUIRE(r1.exact);
    REQUIRE(r2.exact);
    REQUIRE(r1.accuracy.bit_identical == r1.accuracy.elements);
    for (size_t x = 0; x < r1.c.size(); ++x) REQUIRE(std::bit_cast<uint64_t>(r1.c.data[x]) == std::bit_cast<uint64_t>(r2.c.data[x]));
  }
}
