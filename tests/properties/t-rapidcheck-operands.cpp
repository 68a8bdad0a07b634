// ozref/rapidcheck.hpp, the installed RapidCheck generators (docs/fuzz.md, "In a RapidCheck
// property"), through the public API only: the exact product holds every drawn case to 52
// element-wise bits, and a GEMM in FP32 is found below 40 bits and shrunk to a 1x1x1 case
// (of either generator: both hold one-element cases FP32 gets wrong).
#include <rapidcheck/catch.h>

#include <cstdio>

#include "ozref/check.hpp"
#include "ozref/exact.hpp"
#include "ozref/rapidcheck.hpp"

using namespace ozref;

namespace {

api::CheckReport checked(const rapidcheck::Operands& x, const api::Matrix<double>& c, double at_least) {
  return api::check(api::matrix(x.a.data.data(), x.a.rows, x.a.cols, "A"), api::matrix(x.b.data.data(), x.b.rows, x.b.cols, "B"),
                    api::matrix(c.data.data(), c.rows, c.cols, "C"), 1, api::AccuracyFloor{at_least, "elementwise"});
}

api::Matrix<double> float32_gemm(const rapidcheck::Operands& x) {  // the planted bug: products and sums in FP32
  api::Matrix<double> c{x.a.rows, x.b.cols, std::vector<double>(x.a.rows * x.b.cols)};
  for (size_t i = 0; i < x.a.rows; ++i)
    for (size_t j = 0; j < x.b.cols; ++j) {
      float sum = 0;
      for (size_t p = 0; p < x.a.cols; ++p) sum += float(x.a.data[i * x.a.cols + p]) * float(x.b.data[p * x.b.cols + j]);
      c.data[i * c.cols + j] = sum;
    }
  return c;
}

}  // namespace

TEST_CASE("rapidcheck operands: the exact product passes every drawn case", "[properties]") {
  rc::prop("exact product, 52 element-wise bits", [] {
    const rapidcheck::Operands x = *rapidcheck::operands({"randn", "exponent-span", "cancellation", "line-scales"}, 8, 8, 32);
    RC_CLASSIFY(true, x.name);
    const api::ExactProduct e = api::exact(api::matrix(x.a.data.data(), x.a.rows, x.a.cols, "A"), api::matrix(x.b.data.data(), x.b.rows, x.b.cols, "B"), 1);
    RC_ASSERT(checked(x, e.fp64, 52).gate->passed);
  });
}

TEST_CASE("rapidcheck operands: an FP32 GEMM is found and shrunk to 1x1x1", "[properties]") {
  const auto result = rc::detail::checkTestable([] {
    const rapidcheck::Operands x = *rapidcheck::operands({"integers", "randn"});
    RC_ASSERT(checked(x, float32_gemm(x), 40).gate->passed);
  });
  rc::detail::FailureResult failure;
  REQUIRE(result.match(failure));
  REQUIRE(failure.counterExample.size() == 1);
  // showValue's text: "name:... 1x1x1: api::generate(...)". Either generator shrinks to one element: randn's
  // 24-bit rounding, or an integer above 2^12 whose square FP32 cannot hold.
  const std::string shown = failure.counterExample[0].second;
  CHECK((shown.find(" 1x1x1: api::generate(\"randn\", 1, 1, 1, ") != std::string::npos ||
         shown.find(" 1x1x1: api::generate(\"integers\", 1, 1, 1, ") != std::string::npos));
  std::printf("  rapidcheck operands, an FP32 GEMM: %d cases (seed %llu) before the failure, shrunk to %s\n", failure.numSuccess + 1,
              static_cast<unsigned long long>(rc::detail::configuration().testParams.seed), shown.c_str());
}
