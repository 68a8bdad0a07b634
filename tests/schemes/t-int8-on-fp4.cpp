// int8-on-fp4: nine FP4 GEMMs reproduce the INT8 GEMM bit for bit (compared with the INT8 MMA
// model run on the original operands, an independent path), on every FP4 architecture.
#include <cstring>

#include "common/error.hpp"
#include "common/rng.hpp"
#include "mma/gemm.hpp"
#include "schemes/int8_on_fp4/scheme.hpp"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;

TEST_CASE("int8-on-fp4: nine FP4 GEMMs give the INT8 GEMM bit for bit", "[schemes]") {
  Rng rng(test::seed() + 20);
  test::CaseCount cases("int8-on-fp4 elements");
  const size_t m = 7, n = 6, k = 1000;  // padded to 1024 by the INT8 driver
  for (const std::string arch : {"ideal", "sm_100", "sm_120"}) {
    Matrix<double> a(m, k), b(k, n);
    std::vector<uint8_t> ga(m * 1024, 0), gb(n * 1024, 0);
    for (size_t i = 0; i < m; ++i)
      for (size_t kk = 0; kk < k; ++kk) {
        const int v = i == 0 ? -128 : int(rng.next() % 256) - 128;  // row 0: the extreme value
        a(i, kk) = v;
        ga[i * 1024 + kk] = uint8_t(v);
      }
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) {
        const int v = j == 0 ? -128 : j == 1 ? 127 : int(rng.next() % 256) - 128;
        b(kk, j) = v;
        gb[j * 1024 + kk] = uint8_t(v);
      }
    Int8OnFp4Options o;
    o.arch = arch;
    const SchemeResult r = run_int8_on_fp4(a, b, o, nullptr);
    for (const auto& s : r.stages) {
      INFO(arch << " " << s.name << ": " << s.first_violation);
      REQUIRE(s.holds());
    }
    REQUIRE(r.exact);
    REQUIRE(r.low_precision_gemms == 9);
    const auto& int8 = mma::instruction(mma::arch("ideal"), "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
    const std::vector<uint32_t> want = mma::gemm(int8, {m, n, 1024, ga, gb, {}, {}, {}}, {.threads = 1});
    for (size_t x = 0; x < m * n; ++x) {
      INFO(arch << " element " << x);
      REQUIRE(r.c.data[x] == double(int32_t(want[x])));
      ++cases;
    }
    REQUIRE(r.c(0, 0) == 1000.0 * 128 * 128);  // the all -128 corner: 2^14 K
  }
  cases.report(3 * 42);
}

TEST_CASE("int8-on-fp4: values outside INT8 are refused, naming the element", "[schemes]") {
  Matrix<double> a(2, 3, 1.0), b(3, 2, 1.0);
  b(2, 1) = 128;
  CHECK_THROWS_WITH(run_int8_on_fp4(a, b, {}, nullptr), Catch::Contains("B[2,1] = 128.000000 is not an INT8 value"));
  b(2, 1) = 0.5;
  CHECK_THROWS_WITH(run_int8_on_fp4(a, b, {}, nullptr), Catch::Contains("B[2,1]"));
  b(2, 1) = 1;
  Int8OnFp4Options o;
  o.arch = "sm_90";
  CHECK_THROWS_WITH(run_int8_on_fp4(a, b, o, nullptr), Catch::Contains("sm_90 models no e2m1"));
}
