// The properties on products whose exact values and errors are worked out by hand.
#include <algorithm>
#include <cmath>
#include <limits>

#include "fuzz/properties.hpp"
#include "fuzz/session.hpp"
#include "common/error.hpp"
#include "support.hpp"

namespace ozref::fuzz {
namespace {

Matrix<double> row(std::initializer_list<double> values) {
  Matrix<double> m(1, values.size());
  std::copy(values.begin(), values.end(), m.data.begin());
  return m;
}
Matrix<double> column(std::initializer_list<double> values) {
  Matrix<double> m(values.size(), 1);
  std::copy(values.begin(), values.end(), m.data.begin());
  return m;
}
Matrix<double> scalar(double x) { return row({x}); }

// A subject that returns a fixed C, whatever the input.
class Fixed : public Subject {
 public:
  explicit Fixed(std::vector<Matrix<double>> answers) : answers_(std::move(answers)) {}
  SubjectOutcome run(const Matrix<double>&, const Matrix<double>&) override { return {.c = answers_[calls_++ % answers_.size()]}; }
  std::string description() const override { return "fixed"; }

 private:
  std::vector<Matrix<double>> answers_;
  size_t calls_ = 0;
};

TEST_CASE("accuracy: 1 + 2^-40 for E = 1 + 2^-60 has 40 correct bits, to within 2^-19") {
  // E = 1 * 1 + 2^-60 * 1; |C - E| = 2^-40 - 2^-60, so -log2(|C - E| / |E|) = 40 + 2^-20 / ln 2 + O(2^-40).
  const ExactProduct e = exact_gemm(row({1, 0x1p-60}), column({1, 1}));
  for (GateMetric metric : {GateMetric::Maxnorm, GateMetric::Elementwise}) {
    const AccuracyMetrics m = measure(std::vector<double>{1 + 0x1p-40}, e);
    CHECK_FALSE(accuracy_failure(m, 40, metric));
    CHECK(accuracy_failure(m, 40.0001, metric));
    // The correctly rounded C (1): nothing is nearer, so it passes any floor.
    CHECK_FALSE(accuracy_failure(measure(std::vector<double>{1.0}, e), 1000, metric));
  }
}

TEST_CASE("accuracy: a correctly rounded subnormal product passes, one 2.5 units off fails") {
  // E = 3 * 2^-1075 (= 1.5 * 2^-1074) rounds to 2 * 2^-1074 (ties to even).
  const ExactProduct e = exact_gemm(scalar(3 * 0x1p-538), scalar(0x1p-537));
  CHECK_FALSE(accuracy_failure(measure(std::vector<double>{0x1p-1073}, e), 52, GateMetric::Elementwise));
  CHECK(accuracy_failure(measure(std::vector<double>{0x1p-1072}, e), 52, GateMetric::Elementwise));  // 2.5 units of 2^-1074 off
}

TEST_CASE("exactness: an exactly representable product must come back bit for bit") {
  const ExactProduct e = exact_gemm(row({3, -5}), column({7, 4}));  // 21 - 20 = 1
  CHECK_FALSE(exactness_failure(scalar(1.0), e));
  CHECK(exactness_failure(scalar(std::nextafter(1.0, 2.0)), e));
  const ExactProduct zero = exact_gemm(row({2, 2}), column({1, -1}));
  CHECK_FALSE(exactness_failure(scalar(-0.0), zero));  // an exact zero's sign is undefined
  // Not representable (1 + 2^-60): the property does not apply, whatever C is.
  CHECK_FALSE(exactness_failure(scalar(5.0), exact_gemm(row({1, 0x1p-60}), column({1, 1}))));
}

TEST_CASE("specials: NaN and infinities where the exact product has them, none where it has not") {
  constexpr double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const ExactProduct infinite = exact_gemm(row({inf, 1}), column({1, 1}));          // inf
  const ExactProduct undefined = exact_gemm(row({inf, -inf}), column({1, 1}));      // inf - inf = NaN
  const ExactProduct overflow = exact_gemm(row({0x1p1000, 0x1p1000}), column({0x1p23, 0x1p23}));  // 2^1024: +inf
  CHECK_FALSE(specials_failure(measure(std::vector<double>{inf}, infinite)));
  CHECK(specials_failure(measure(std::vector<double>{nan}, infinite)));
  CHECK(specials_failure(measure(std::vector<double>{-inf}, infinite)));
  CHECK_FALSE(specials_failure(measure(std::vector<double>{nan}, undefined)));
  CHECK(specials_failure(measure(std::vector<double>{1.0}, undefined)));
  CHECK_FALSE(specials_failure(measure(std::vector<double>{inf}, overflow)));
  CHECK(specials_failure(measure(std::vector<double>{0x1.fffffffffffffp1023}, overflow)));
}

TEST_CASE("determinism: two runs must agree in every bit, zeros' signs included") {
  CHECK_FALSE(determinism_failure(row({1, 0.0}), row({1, 0.0})));
  CHECK(determinism_failure(row({1, 0.0}), row({1, -0.0})));
  Fixed flaky({row({1, 0.0}), row({1, -0.0})});
  const PropertySet set = parse_properties("determinism", std::nullopt, "maxnorm");
  const Verdict v = check_case(set, flaky, row({1, 1}), Matrix<double>(2, 2, 0.0));
  REQUIRE(v.failed);
  CHECK(*v.failed == Property::Determinism);
  CHECK(v.detail == "two runs differ at C[0,1]");
}

TEST_CASE("check_case: the first failing property in the order given, and none on a right answer") {
  const Matrix<double> a = row({3, -5}), b = column({7, 4});
  Fixed right({scalar(1.0)}), wrong({scalar(1.5)});
  const PropertySet set = parse_properties("specials,exactness,accuracy", 60.0, "elementwise");
  CHECK_FALSE(check_case(set, right, a, b).failed);
  const Verdict v = check_case(set, wrong, a, b);
  REQUIRE(v.failed);
  CHECK(*v.failed == Property::Exactness);
  CHECK(*check_case(set, wrong, a, b, Property::Accuracy).failed == Property::Accuracy);  // 1 correct bit
}

TEST_CASE("correctly-rounded: C must be round(E) at every element, where exactness looks only at representable products") {
  // E = 1 + 2^-60: not an FP64 number (exactness has nothing to say), round(E) = 1.
  const ExactProduct e = exact_gemm(row({1, 0x1p-60}), column({1, 1}));
  CHECK_FALSE(exactness_failure(scalar(std::nextafter(1.0, 2.0)), e));
  CHECK_FALSE(correctly_rounded_failure(scalar(1.0), e));
  const auto off = correctly_rounded_failure(scalar(std::nextafter(1.0, 2.0)), e);
  REQUIRE(off);
  CHECK(*off == "C[0,0] = 1.0000000000000002 where the exact product rounds to 1");
  // An exact zero (2 - 2) takes either zero; -2^-1076 rounds to -0, whose sign is part of round(E).
  const ExactProduct zero = exact_gemm(row({2, 2}), column({1, -1}));
  CHECK_FALSE(correctly_rounded_failure(scalar(-0.0), zero));
  const ExactProduct underflow = exact_gemm(scalar(-0x1p-538), scalar(0x1p-538));
  CHECK_FALSE(correctly_rounded_failure(scalar(-0.0), underflow));
  CHECK(correctly_rounded_failure(scalar(0.0), underflow));
  // Any NaN matches a NaN (inf * 0).
  const ExactProduct nan = exact_gemm(scalar(std::numeric_limits<double>::infinity()), scalar(0.0));
  CHECK_FALSE(correctly_rounded_failure(scalar(-std::numeric_limits<double>::quiet_NaN()), nan));
  CHECK(correctly_rounded_failure(scalar(0.0), nan));
  CHECK(parse_properties("correctly-rounded", std::nullopt, "maxnorm").description() == "correctly-rounded");
}

TEST_CASE("check_case: an oracle set (the GPU's, --exact-device gpu) is what C is measured against, and the replay words say so") {
  const Matrix<double> a = row({3, -5}), b = column({7, 4});  // 21 - 20 = 1
  Fixed right({scalar(1.0)});
  PropertySet set = parse_properties("exactness", std::nullopt, "maxnorm");
  size_t calls = 0;
  set.exact_device = "gpu";
  set.oracle = [&](const Matrix<double>& x, const Matrix<double>& y) {  // a stand-in that doubles A: E = 2
    ++calls;
    Matrix<double> twice = x;
    for (double& v : twice.data) v *= 2;
    return exact_gemm(twice, y);
  };
  const Verdict v = check_case(set, right, a, b);
  CHECK(calls == 1);
  REQUIRE(v.failed);  // 1 is not the stand-in's 2
  CHECK(*v.failed == Property::Exactness);
  const std::vector<std::string> words = check_words({.name = "exact"}, set);
  const auto flag = std::find(words.begin(), words.end(), "--exact-device");
  REQUIRE(flag != words.end());
  CHECK(*(flag + 1) == "gpu");
  set.exact_device = "cpu";
  const std::vector<std::string> cpu_words = check_words({.name = "exact"}, set);
  CHECK(std::find(cpu_words.begin(), cpu_words.end(), "--exact-device") == cpu_words.end());
}

TEST_CASE("parse_properties: the default set, and bad spellings refused") {
  CHECK(parse_properties("", 40.0, "maxnorm").description() == "accuracy(maxnorm >= 40.000), specials, no-crash");
  CHECK(parse_properties("", std::nullopt, "maxnorm").description() == "specials, no-crash");
  CHECK_THROWS_AS(parse_properties("accuracy", std::nullopt, "maxnorm"), InputError);
  CHECK_THROWS_AS(parse_properties("speed", 1.0, "maxnorm"), InputError);
  CHECK_THROWS_AS(parse_properties("", 1.0, "relative"), InputError);
}

}  // namespace
}  // namespace ozref::fuzz
