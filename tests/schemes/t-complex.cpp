// --complex: the 3M Ozaki-II runs and the 4M Ozaki-I runs against the exact complex product
// (bit-identical on Gaussian integers), against the real pipeline when the imaginary parts vanish,
// and end to end through `ozref run` with complex128 files.
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "cli/verbs.hpp"
#include "common/distributions.hpp"
#include "common/error.hpp"
#include "io/npy.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "scheme_support.hpp"

using namespace ozref;
using namespace ozref::schemes;
using ozref::test::require_all_verified;

TEST_CASE("complex: Gaussian integers are reproduced bit for bit by every 3M, Gaussian-moduli and 4M variant", "[schemes]") {
  Rng rng(test::seed() + 50);
  test::CaseCount cases("complex runs");
  const Distribution d{Distribution::Integers, 1000};
  const Matrix<double> ar = random_matrix(5, 60, d, rng), ai = random_matrix(5, 60, d, rng);
  const Matrix<double> br = random_matrix(60, 4, d, rng), bi = random_matrix(60, 4, d, rng);
  for (Ozaki2Variant v : {Ozaki2Variant::Int8, Ozaki2Variant::Fp8, Ozaki2Variant::Fp4})
    for (ScalingMode mode : {ScalingMode::Fast, ScalingMode::Accurate}) {
      Ozaki2Options o;
      o.variant = v;
      o.mode = mode;
      const SchemeResult r = run_ozaki2_complex(ar, ai, br, bi, o, nullptr);
      INFO(ozaki2_family(v).scheme);
      require_all_verified(r);
      REQUIRE(r.stages[r.stages.size() - 3].name == "complex");
      REQUIRE(r.accuracy.elements == 2 * 5 * 4);
      REQUIRE(r.accuracy.bit_identical == r.accuracy.elements);
      ++cases;
    }
  for (ScalingMode mode : {ScalingMode::Fast, ScalingMode::Accurate}) {  // two GEMMs per Gaussian modulus
    Ozaki2Options o;
    o.mode = mode;
    o.complex_product = ComplexProduct::Gaussian;
    const SchemeResult r = run_ozaki2_complex(ar, ai, br, bi, o, nullptr);
    require_all_verified(r);
    REQUIRE(r.accuracy.bit_identical == r.accuracy.elements);
    REQUIRE(r.low_precision_gemms == 2 * 16 + (mode == ScalingMode::Accurate ? 1 : 0));
    ++cases;
  }
  Ozaki1Options o1;
  o1.slices = 5;  // integers below 2^10 with w = 7: every nonzero slice product kept
  const SchemeResult r1 = run_ozaki1_complex(ar, ai, br, bi, o1, nullptr);
  require_all_verified(r1);
  REQUIRE(r1.accuracy.bit_identical == r1.accuracy.elements);
  REQUIRE(r1.low_precision_gemms == 4 * 15);
  ++cases;
  // Spot check of the parts against the definition, element (2, 3).
  double re = 0, im = 0;
  for (size_t k = 0; k < 60; ++k) {
    re += ar(2, k) * br(k, 3) - ai(2, k) * bi(k, 3);  // exact: integers far below 2^53
    im += ar(2, k) * bi(k, 3) + ai(2, k) * br(k, 3);
  }
  REQUIRE(r1.c(2, 3) == re);
  REQUIRE(r1.c_imag(2, 3) == im);
  cases.report(9);
}

TEST_CASE("complex: with zero imaginary parts the 3M run gives the real run's result", "[schemes]") {
  Rng rng(test::seed() + 51);
  const Distribution d{Distribution::Phi, 1.5};
  const Matrix<double> a = random_matrix(6, 50, d, rng), b = random_matrix(50, 7, d, rng);
  const Matrix<double> za(6, 50, 0.0), zb(50, 7, 0.0);
  for (Ozaki2Variant v : {Ozaki2Variant::Int8, Ozaki2Variant::Fp4}) {
    Ozaki2Options o;
    o.variant = v;
    const SchemeResult real = run_ozaki2(a, b, o, nullptr), cplx = run_ozaki2_complex(a, za, b, zb, o, nullptr);
    require_all_verified(cplx);
    REQUIRE(cplx.c.data == real.c.data);
    for (double x : cplx.c_imag.data) REQUIRE(x == 0);
  }
}

TEST_CASE("complex: ozref run --complex reads and writes complex128 files", "[schemes]") {
  const auto dir = std::filesystem::temp_directory_path() / ("ozref-complex-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Matrix<double> ar(2, 3), ai(2, 3), br(3, 2), bi(3, 2);
  for (size_t x = 0; x < 6; ++x) {
    ar.data[x] = double(x) + 1, ai.data[x] = -double(x);
    br.data[x] = 2 - double(x), bi.data[x] = 0.5 * double(x);
  }
  write_npy((dir / "a.npy").string(), npy_from_complex(ar, ai));
  write_npy((dir / "b.npy").string(), npy_from_complex(br, bi));
  cli::RunArgs args;
  args.scheme = "ozaki2-fp8";
  args.complex = true;
  args.a = (dir / "a.npy").string();
  args.b = (dir / "b.npy").string();
  args.out = (dir / "c.npy").string();
  std::ostringstream out;
  for (const char* product : {"", "gaussian"}) {  // ozaki2-fp8's 3M, ozaki2-int8's Gaussian moduli
    if (*product) args.scheme = "ozaki2-int8", args.options.complex_product = product;
    INFO(args.scheme);
    REQUIRE(cli::run_run(args, out) == 0);
    const ComplexMatrix c = complex_from_npy(read_npy(args.out), args.out);
    for (size_t i = 0; i < 2; ++i)
      for (size_t j = 0; j < 2; ++j) {
        double re = 0, im = 0;
        for (size_t k = 0; k < 3; ++k) {
          re += ar(i, k) * br(k, j) - ai(i, k) * bi(k, j);
          im += ar(i, k) * bi(k, j) + ai(i, k) * br(k, j);
        }
        CHECK(c.re(i, j) == re);
        CHECK(c.im(i, j) == im);
      }
  }
  args.scheme = "ozaki2-fp8";
  CHECK_THROWS_WITH(cli::run_run(args, out), Catch::Contains("ozaki2-fp8 takes no --complex-product"));
  args.options.complex_product = "4m", args.scheme = "ozaki2-int8";
  CHECK_THROWS_WITH(cli::run_run(args, out), Catch::Contains("unknown --complex-product '4m'"));
  cli::RunArgs real;  // a Gaussian product is a complex one
  real.scheme = "ozaki2-int8", real.options.complex_product = "gaussian";
  CHECK_THROWS_WITH(cli::run_run(real, out), Catch::Contains("--complex-product gaussian is a complex ozaki2-int8 product"));
  args.options.complex_product.clear();
  args.scheme = "int8-on-fp4";
  CHECK_THROWS_WITH(cli::run_run(args, out), Catch::Contains("--complex is implemented for"));
  args.scheme = "rare";
  CHECK_THROWS_WITH(cli::run_run(args, out), Catch::Contains("--complex is implemented for"));
  std::filesystem::remove_all(dir);
}
