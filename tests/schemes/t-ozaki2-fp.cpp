// ozaki2-fp8 and ozaki2-fp4 end to end: exact on integer inputs within their bound on every
// architecture that models their instruction (bit-identical to the exact product, checked by the
// independent exact GEMM); the GEMM counts; scale and thread invariance; and the precise report
// of the one known inexact accumulator (sm_90's wgmma FP8 path).
#include <cmath>

#include "common/distributions.hpp"
#include "common/error.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "scheme_support.hpp"

using namespace ozref;
using namespace ozref::schemes;
using ozref::test::require_all_verified;

TEST_CASE("ozaki2-fp8/fp4: integer inputs within the bound are reproduced bit for bit", "[schemes]") {
  Rng rng(test::seed() + 10);
  test::CaseCount cases("ozaki2 fp runs");
  struct Case { Ozaki2Variant v; const char* arch; };
  for (const Case c : {Case{Ozaki2Variant::Fp8, "ideal"}, Case{Ozaki2Variant::Fp8, "sm_89"}, Case{Ozaki2Variant::Fp8, "sm_90"},
                       Case{Ozaki2Variant::Fp8, "sm_100"}, Case{Ozaki2Variant::Fp8, "sm_120"}, Case{Ozaki2Variant::Fp4, "ideal"},
                       Case{Ozaki2Variant::Fp4, "sm_100"}, Case{Ozaki2Variant::Fp4, "sm_120"}})
    for (ScalingMode mode : {ScalingMode::Fast, ScalingMode::Accurate}) {
      const Distribution d{Distribution::Integers, 1000};
      const Matrix<double> a = random_matrix(6, 70, d, rng), b = random_matrix(70, 5, d, rng);
      Ozaki2Options o;
      o.variant = c.v;
      o.arch = c.arch;
      o.mode = mode;
      const SchemeResult r = run_ozaki2(a, b, o, nullptr);
      INFO(ozaki2_family(c.v).scheme << " on " << c.arch << (mode == ScalingMode::Fast ? " fast" : " accurate"));
      require_all_verified(r);
      REQUIRE(r.accuracy.bit_identical == r.accuracy.elements);
      // fp8: 3 GEMMs per modulus (14 by default); fp4: 3 for 169 and 4 for each other (75).
      const size_t expected = c.v == Ozaki2Variant::Fp8 ? 42 : 75;
      REQUIRE(r.low_precision_gemms == expected + (mode == ScalingMode::Accurate ? 1u : 0u));
      ++cases;
    }
  cases.report(16);
}

TEST_CASE("ozaki2-fp8/fp4: every moduli count gives an exact pipeline on phi data", "[schemes]") {
  Rng rng(test::seed() + 11);
  const Distribution d{Distribution::Phi, 1.0};
  const Matrix<double> a = random_matrix(5, 40, d, rng), b = random_matrix(40, 4, d, rng);
  test::CaseCount cases("moduli counts");
  for (Ozaki2Variant v : {Ozaki2Variant::Fp8, Ozaki2Variant::Fp4})
    for (size_t count = 2; count <= ozaki2_family(v).moduli.size(); ++count) {
      Ozaki2Options o;
      o.variant = v;
      o.moduli = count;
      const SchemeResult r = run_ozaki2(a, b, o, nullptr);
      INFO(ozaki2_family(v).scheme << " with " << count << " moduli");
      require_all_verified(r);
      ++cases;
    }
  cases.report(37);
}

TEST_CASE("ozaki2-fp8/fp4: power-of-two scaling and the thread count leave the result unchanged", "[schemes]") {
  Rng rng(test::seed() + 12);
  const Distribution d{Distribution::Phi, 2.0};
  const Matrix<double> a = random_matrix(4, 33, d, rng), b = random_matrix(33, 3, d, rng);
  Matrix<double> a2 = a, b2 = b;
  const int row_exp[4] = {50, -70, 0, 300}, col_exp[3] = {-9, 0, 123};
  for (size_t i = 0; i < 4; ++i)
    for (size_t k = 0; k < 33; ++k) a2(i, k) = std::ldexp(a(i, k), row_exp[i]);
  for (size_t k = 0; k < 33; ++k)
    for (size_t j = 0; j < 3; ++j) b2(k, j) = std::ldexp(b(k, j), col_exp[j]);
  for (Ozaki2Variant v : {Ozaki2Variant::Fp8, Ozaki2Variant::Fp4})
    for (ScalingMode mode : {ScalingMode::Fast, ScalingMode::Accurate}) {
      Ozaki2Options o;
      o.variant = v;
      o.mode = mode;
      o.threads = 1;
      const SchemeResult r1 = run_ozaki2(a, b, o, nullptr), r2 = run_ozaki2(a2, b2, o, nullptr);
      o.threads = 2;
      const SchemeResult r3 = run_ozaki2(a, b, o, nullptr);
      for (size_t i = 0; i < 4; ++i)
        for (size_t j = 0; j < 3; ++j) {
          INFO(ozaki2_family(v).scheme << " C[" << i << "," << j << "]");
          REQUIRE(r2.c(i, j) == std::ldexp(r1.c(i, j), row_exp[i] + col_exp[j]));
          REQUIRE(r3.c(i, j) == r1.c(i, j));
        }
    }
}

TEST_CASE("ozaki2-fp8 on sm_90's wgmma: the inexact FP8 accumulation is reported, never a silent result", "[schemes]") {
  // K = 65536 (the FP8 variant's bound on an exact FP32 accumulator): the sums of limb products
  // outgrow the 13 fraction bits wgmma keeps. The same run through mma.sync (the FP16 path, 25
  // bits) must stay exact.
  Rng rng(test::seed() + 13);
  const Distribution d{Distribution::Phi, 1.0};
  const Matrix<double> a = random_matrix(2, 65536, d, rng), b = random_matrix(65536, 2, d, rng);
  Ozaki2Options o;
  o.variant = Ozaki2Variant::Fp8;
  o.arch = "sm_90";
  o.mode = ScalingMode::Fast;
  o.moduli = 8;
  o.op = "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3";
  const SchemeResult bad = run_ozaki2(a, b, o, nullptr);
  const StageReport& gemm = bad.stages[4];
  REQUIRE(gemm.name == "gemm");
  REQUIRE(gemm.violations > 0);
  REQUIRE(gemm.first_violation.find("gemm.c[modulus 1089, limbs ") != std::string::npos);
  REQUIRE(gemm.first_violation.find("exact") != std::string::npos);
  REQUIRE_FALSE(gemm.notes.empty());
  REQUIRE(gemm.notes[0].find("elements not exact") != std::string::npos);
  REQUIRE_FALSE(bad.exact);
  o.op.clear();
  require_all_verified(run_ozaki2(a, b, o, nullptr));
}

TEST_CASE("ozaki2-fp8/fp4: bad input is refused with a clear error", "[schemes]") {
  Ozaki2Options o;
  o.variant = Ozaki2Variant::Fp4;
  o.moduli = 20;
  const Matrix<double> a(2, 3, 1.0), b(3, 2, 1.0);
  CHECK_THROWS_WITH(run_ozaki2(a, b, o, nullptr), Catch::Contains("ozaki2-fp4: --moduli must be 2..19"));
  o.moduli = 0;
  o.arch = "sm_90";
  CHECK_THROWS_WITH(run_ozaki2(a, b, o, nullptr), Catch::Contains("sm_90 models no e2m1"));
  o.variant = Ozaki2Variant::Fp8;
  CHECK_THROWS_WITH(run_ozaki2(Matrix<double>(1, 65537, 1.0), Matrix<double>(65537, 1, 1.0), o, nullptr),
                    Catch::Contains("exceeds the bound 65536"));
}
