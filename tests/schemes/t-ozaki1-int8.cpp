// ozaki1-int8 end to end: exact on integer inputs that p slices hold completely, on every INT8
// model; every stage verified; scale invariance; the FP64 accumulation reported as not exact.
#include <cmath>

#include "common/distributions.hpp"
#include "common/error.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "scheme_support.hpp"

using namespace ozref;
using namespace ozref::schemes;

TEST_CASE("ozaki1-int8: integers held by the slices are reproduced bit for bit, both slicings", "[schemes]") {
  Rng rng(test::seed());
  test::CaseCount cases("ozaki1-int8 integer runs");
  for (Ozaki1Variant v : {Ozaki1Variant::Int8, Ozaki1Variant::Int8Cublas})
    for (const std::string arch : {"ideal", "sm_90", "sm_80"})
      for (size_t p : {3, 5}) {
        // Integers below 2^20 (both signs) sit in slices 0..2 (ozIMMU: w = 7 at K = 64; cublas: 7 + 8
        // + 8 bits), so slice products up to t + u = 4 are nonzero: p = 5 keeps them all and is
        // exact; p = 3 drops t + u in {3, 4} and is not.
        const Distribution d{Distribution::Integers, (1 << 20) - 1};
        const Matrix<double> a = random_matrix(6, 64, d, rng), b = random_matrix(64, 7, d, rng);
        Ozaki1Options o;
        o.variant = v;
        o.slices = p;
        o.arch = arch;
        const SchemeResult r = run_ozaki1(a, b, o, nullptr);
        INFO((v == Ozaki1Variant::Int8 ? "ozimmu " : "cublas ") << arch << " p " << p);
        test::require_all_verified(r);
        REQUIRE(r.low_precision_gemms == p * (p + 1) / 2);
        if (p == 5) REQUIRE(r.accuracy.bit_identical == r.accuracy.elements);
        else REQUIRE(r.accuracy.bit_identical < r.accuracy.elements);
        ++cases;
      }
  cases.report(12);
}

TEST_CASE("ozaki1-int8: power-of-two scaling of rows and columns scales C exactly", "[schemes]") {
  Rng rng(test::seed() + 1);
  const Distribution d{Distribution::Phi, 1.0};
  const Matrix<double> a = random_matrix(5, 30, d, rng), b = random_matrix(30, 4, d, rng);
  Matrix<double> a2 = a, b2 = b;
  for (size_t k = 0; k < 30; ++k) {
    a2(2, k) = std::ldexp(a(2, k), -77);
    b2(k, 1) = std::ldexp(b(k, 1), 301);
  }
  for (Accumulation acc : {Accumulation::Exact, Accumulation::Fp64}) {
    Ozaki1Options o;
    o.accumulation = acc;
    const SchemeResult r1 = run_ozaki1(a, b, o, nullptr), r2 = run_ozaki1(a2, b2, o, nullptr);
    for (size_t i = 0; i < 5; ++i)
      for (size_t j = 0; j < 4; ++j) REQUIRE(r2.c(i, j) == std::ldexp(r1.c(i, j), (i == 2 ? -77 : 0) + (j == 1 ? 301 : 0)));
    if (acc == Accumulation::Fp64) CHECK_FALSE(r1.exact);
  }
}

TEST_CASE("ozaki1-int8: bad input is refused", "[schemes]") {
  Matrix<double> a(2, 2, 1.0), b(2, 2, 1.0);
  b(0, 1) = INFINITY;
  CHECK_THROWS_WITH(run_ozaki1(a, b, {}, nullptr), Catch::Contains("B[0,1] is not finite"));
  b(0, 1) = 1;
  Ozaki1Options o;
  o.slices = 10;
  CHECK_THROWS_WITH(run_ozaki1(a, b, o, nullptr), Catch::Contains("--slices must be 1..9"));
  o.variant = Ozaki1Variant::Fp4;
  o.slices = 17;
  CHECK_THROWS_WITH(run_ozaki1(a, b, o, nullptr), Catch::Contains("ozaki1-fp4: --slices must be 1..16"));
  o.slices = 4;
  o.accumulation = Accumulation::Fused;
  CHECK_THROWS_WITH(run_ozaki1(a, b, o, nullptr), Catch::Contains("fused is the INT32 accumulation"));
  o.accumulation = Accumulation::Exact;
  o.arch = "sm_90";
  CHECK_THROWS_WITH(run_ozaki1(a, b, o, nullptr), Catch::Contains("sm_90 models no e2m1"));
}

TEST_CASE("ozaki1-int8 --slicing cublas: refusals", "[schemes]") {
  Ozaki1Options o;
  o.variant = Ozaki1Variant::Int8Cublas;
  o.accumulation = Accumulation::Fused;
  const Matrix<double> a(2, 3, 1.0), b(3, 2, 1.0);
  CHECK_THROWS_WITH(run_ozaki1(a, b, o, nullptr), Catch::Contains("fused would put s8 and u8"));
  o.accumulation = Accumulation::Exact;
  CHECK_THROWS_WITH(run_ozaki1(Matrix<double>(1, 33026, 1.0), Matrix<double>(33026, 1, 1.0), o, nullptr), Catch::Contains("exceeds 33025"));
  o.arch = "sm_100";
  CHECK_THROWS_WITH(run_ozaki1(a, b, o, nullptr), Catch::Contains("no INT8 instruction with s8.u8"));
}

TEST_CASE("ozaki1-int8 --slicing cublas regression (property): tiny negative elements with nine slices", "[schemes]") {
  // Found by the property "Ozaki-I slices add back" (9 slices, phi = 5.1): x = a 2^s a tiny
  // negative number, floor(x) = -1, and the remainder 1 + x needed more than the 64 bits of a long
  // double; the slices are now taken from floor(a 2^(s + 64)) in 128-bit integers. Oracle: GMP.
  const Slicing sl(Ozaki1Variant::Int8Cublas, 9, 32, 1);
  for (const double a : {-0x1.d8e2d3f79f863p-9, -0x1.007b14590a63fp-15, 0x1.007b14590a63fp-15, -0x1p-70, -0x1.fffffffffffffp+0}) {
    const int shift = -6;  // a row whose largest magnitude is in [64, 128)
    int8_t s[9];
    sl.slice(a, shift, s, 1);
    INFO("a = " << a);
    CHECK(sl.check(a, shift, s, 1).empty());
    mpq_class scaled(a);
    scaled *= mpq_class(mpz_class(1) << 58);  // 2^(shift + 8 * 8)
    mpz_class want;
    mpz_fdiv_q(want.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
    mpz_class got = s[0];
    for (int t = 1; t < 9; ++t) got = got * 256 + static_cast<uint8_t>(s[t]);
    CHECK(got == want);
  }
}
