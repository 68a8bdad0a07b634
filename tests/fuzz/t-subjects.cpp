// The dlopen: and exec: subjects in campaigns: a right subject gives no finding, a crashing or
// hanging one is found and shrunk to the smallest case that still does it.
#include <sstream>

#include "common/error.hpp"
#include "fuzz/campaign.hpp"
#include "fuzz/exec_subject.hpp"
#include "fuzz/subjects.hpp"
#include "support.hpp"

namespace ozref::fuzz {
namespace {

const std::string kLibrary = OZREF_FUZZ_TEST_GEMMS;  // tests/fuzz/test_gemms.c, built as a shared library

CampaignResult campaign(const std::string& subject_name, const std::string& properties, uint64_t cases, std::vector<std::string> generators,
                        ShapeLimits shapes = {}) {
  const auto subject = make_subject({.name = subject_name, .timeout_seconds = 0.5});
  CampaignOptions o{.seed = test::seed(), .seconds = 60, .max_cases = cases, .generators = std::move(generators), .shapes = shapes};
  // Naive FP64 sums of at most 64 positive terms: a relative error below 64 * 2^-53 (46 bits).
  o.properties = parse_properties(properties, 40.0, "maxnorm");
  std::ostringstream progress;
  return run_campaign(*subject, o, progress);
}

TEST_CASE("dlopen: the row- and column-major functions, each called in its layout, hold 40 bits on positive data") {
  for (const std::string layout : {"rowmajor", "colmajor"}) {
    const CampaignResult r = campaign("dlopen:" + kLibrary + ":gemm_" + layout + ":" + layout, "accuracy,specials,no-crash", 100, {"uniform"});
    CHECK_FALSE(r.finding);
    CHECK(r.cases == 100);
    WARN("dlopen " << layout << ": " << r.cases << " cases (seed " << test::seed() << ")");
  }
}

TEST_CASE("dlopen: a column-major function called as row-major is found out") {
  const CampaignResult r = campaign("dlopen:" + kLibrary + ":gemm_colmajor:rowmajor", "accuracy", 200, {"uniform"});
  REQUIRE(r.finding);
  CHECK(*r.finding->original_verdict.failed == Property::Accuracy);
  // A 1x1xK or Mx1x1 product reads the same in both layouts; the smallest that does not is 2 by 2 somewhere.
  const Shrunk& s = r.finding->shrunk;
  CHECK(s.a.rows * s.b.cols * s.a.cols >= 2);
}

TEST_CASE("dlopen: a crash past K = 8 is shrunk to 1x1x9") {
  const CampaignResult r = campaign("dlopen:" + kLibrary + ":gemm_crashes_past_k8", "no-crash", 500, {"randn"});
  REQUIRE(r.finding);
  CHECK(r.finding->shrunk.verdict.failure_kind == "crash");
  CHECK(r.finding->shrunk.a.rows == 1);
  CHECK(r.finding->shrunk.b.cols == 1);
  CHECK(r.finding->shrunk.a.cols == 9);
  WARN("dlopen crash: " << r.cases << " cases (seed " << test::seed() << ")");
}

TEST_CASE("dlopen: a hang on two rows is a timeout, shrunk to 2x1x1") {
  const CampaignResult r = campaign("dlopen:" + kLibrary + ":gemm_hangs_on_two_rows", "no-crash", 500, {"randn"}, {.max_m = 3, .max_n = 3, .max_k = 3});
  REQUIRE(r.finding);
  CHECK(r.finding->shrunk.verdict.failure_kind == "timeout");
  CHECK(r.finding->shrunk.a.rows == 2);
  CHECK(r.finding->shrunk.b.cols == 1);
  CHECK(r.finding->shrunk.a.cols == 1);
}

TEST_CASE("subjects: malformed names are refused with InputError") {
  CHECK_THROWS_AS(make_subject({.name = "dlopen:" + kLibrary}), InputError);
  CHECK_THROWS_AS(make_subject({.name = "dlopen:" + kLibrary + ":no_such_symbol"}), InputError);
  CHECK_THROWS_AS(make_subject({.name = "dlopen:" + kLibrary + ":gemm_rowmajor:diagonal"}), InputError);
  CHECK_THROWS_AS(make_subject({.name = "dlopen:/nonexistent.so:f"}), InputError);
  CHECK_THROWS_AS(make_subject({.name = "exec:  "}), InputError);
  CHECK_THROWS_AS(make_subject({.name = "nosuch@1"}), InputError);
  CHECK(split_command(" a  b\tc ") == std::vector<std::string>{"a", "b", "c"});
}

}  // namespace
}  // namespace ozref::fuzz
