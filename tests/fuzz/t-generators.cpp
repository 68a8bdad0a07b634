// The generators: every case a function of its case seed, shapes within the limits, and each
// distribution where the catalogue (docs/fuzz.md) says it is.
#include <cmath>
#include <cstring>

#include "fuzz/generators.hpp"
#include "common/error.hpp"
#include "support.hpp"

namespace ozref::fuzz {
namespace {

bool same_bits(const Matrix<double>& x, const Matrix<double>& y) {
  return x.rows == y.rows && x.cols == y.cols && std::memcmp(x.data.data(), y.data.data(), x.size() * sizeof(double)) == 0;
}

int exponent(double x) {
  int e = 0;
  std::frexp(x, &e);
  return e;
}

TEST_CASE("generators: a case is made again from its seed and index alone, within the shape limits") {
  test::CaseCount cases("generated cases made twice");
  const ShapeLimits limits{.max_m = 5, .max_n = 7, .max_k = 33};
  for (uint64_t i = 0; i < 300; ++i, ++cases) {
    const FuzzCase c = generate_case(test::seed(), i, generator_names(), limits);
    const FuzzCase again = generate_case(test::seed(), i, generator_names(), limits);
    CHECK(same_bits(c.a, again.a));
    CHECK(same_bits(c.b, again.b));
    CHECK(c.generator == again.generator);
    CHECK(c.seed == case_seed(test::seed(), i));
    CHECK((c.m() >= 1 && c.m() <= 5 && c.n() >= 1 && c.n() <= 7 && c.k() >= 1 && c.k() <= 33));
    CHECK(c.b.rows == c.k());
  }
  cases.report(300);
  CHECK(case_seed(1, 0) != case_seed(1, 1));
  CHECK(case_seed(1, 1) != case_seed(2, 0));
}

TEST_CASE("generators: exponent-span, subnormal and near-overflow stay in their ranges") {
  test::CaseCount cases("generator ranges");
  const ShapeLimits limits{};
  for (uint64_t i = 0; i < 200; ++i, ++cases) {
    const FuzzCase span = generate_case(test::seed(), i, {"exponent-span"}, limits);
    const int e_max = std::stoi(span.generator.substr(span.generator.find(':') + 1));
    bool in_span = true, low_products = true, high_products = true;
    for (const Matrix<double>* x : {&span.a, &span.b})
      for (double v : x->data) in_span = in_span && (v == 0 || (exponent(v) <= e_max + 4 && exponent(v) >= -e_max - 60));  // 2^-56 < |randn| < 2^4
    // Products 2^(-total) * 2^(jitter of up to 4 + 4) * randn * randn: at most 2^(-1010 + 8 + 8).
    const FuzzCase low = generate_case(test::seed(), i, {"subnormal"}, limits);
    for (double x : low.a.data)
      for (double y : low.b.data) low_products = low_products && (x == 0 || y == 0 || exponent(x) + exponent(y) <= -1010 + 8 + 8 + 2);
    const FuzzCase high = generate_case(test::seed(), i, {"near-overflow"}, limits);
    for (double x : high.a.data)
      for (double y : high.b.data) high_products = high_products && (x == 0 || y == 0 || exponent(x) + exponent(y) >= 1012 - 8 - 8 - 60);
    CHECK(in_span);
    CHECK(low_products);
    CHECK(high_products);
  }
  cases.report(200);
}

TEST_CASE("generators: every name of the catalogue makes finite data but specials, which plants some") {
  test::CaseCount cases("catalogue cases");
  for (const std::string& name : generator_names()) {
    bool special_seen = false;
    for (uint64_t i = 0; i < 20; ++i, ++cases) {
      const FuzzCase c = generate_case(test::seed(), i, {name}, {});
      CHECK(c.generator.starts_with(name));
      for (const Matrix<double>* x : {&c.a, &c.b})
        for (double v : x->data) {
          special_seen = special_seen || !std::isfinite(v) || (v == 0 && std::signbit(v));
          if (name != "specials") CHECK(std::isfinite(v));
        }
    }
    if (name == "specials") CHECK(special_seen);
  }
  cases.report(20 * generator_names().size());
  CHECK_THROWS_AS(parse_generators("randn,gaussian"), InputError);
  CHECK(parse_generators("randn,sparse") == std::vector<std::string>{"randn", "sparse"});
}

}  // namespace
}  // namespace ozref::fuzz
