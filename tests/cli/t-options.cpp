// The range-checked option types (cli/options.hpp) on the texts a careless or hostile user types:
// signs, wrap-around, other bases, spaces, NaN and infinities.
#include "cli/options.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
bool accepts(const CLI::Validator& v, std::string text) { return v(text).empty(); }
}  // namespace

TEST_CASE("options: integers are plain decimals within their range, never wrapped", "[cli]") {
  test::CaseCount cases("option texts");
  const CLI::Validator size = cli::integer_in(1, 2147483647);
  for (const char* ok : {"1", "2", "2147483647", "0001"}) {
    INFO(ok);
    CHECK(accepts(size, ok));
    ++cases;
  }
  for (const char* bad : {"0", "-1", "-0", "2147483648", "18446744073709551615", "18446744073709551616",
                          "99999999999999999999999", "+1", " 1", "1 ", "0x10", "1e3", "1.0", "", "-", "abc", "１"}) {
    INFO(bad);
    CHECK_FALSE(accepts(size, bad));
    ++cases;
  }
  const CLI::Validator seed = cli::integer_in(0, UINT64_MAX);
  CHECK(accepts(seed, "18446744073709551615"));
  CHECK(accepts(seed, "0"));
  CHECK_FALSE(accepts(seed, "-0"));  // no sign where the range has none
  CHECK_FALSE(accepts(seed, "-1"));
  CHECK_FALSE(accepts(seed, "18446744073709551616"));
  const CLI::Validator signed_range = cli::integer_in(LLONG_MIN, 5);
  CHECK(accepts(signed_range, "-9223372036854775808"));
  CHECK_FALSE(accepts(signed_range, "-9223372036854775809"));
  CHECK(accepts(signed_range, "5"));
  CHECK_FALSE(accepts(signed_range, "6"));
  CHECK(accepts(signed_range, "-0"));
  cases += 10;
  std::string text = "-1";
  CHECK(size(text) == "'-1' is not an integer in [1, 2147483647]");
  cases.report(30);
}

TEST_CASE("options: reals are plain decimals within their range; exponents, hexadecimal, NaN and infinities refused", "[cli]") {
  test::CaseCount cases("real option texts");
  const CLI::Validator phi = cli::finite_in(0, 64);
  for (const char* ok : {"0", "1", "0.5", ".5", "5.", "64", "064.000", "63.999999999999999999999"}) {
    INFO(ok);
    CHECK(accepts(phi, ok));
    ++cases;
  }
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "1e400", "-0.5", "-0", "+1", "64.0000001", "", " 1", "1 ", "1x", "4,5", "6.4e1",
                          "1e1", "0x1p3", "0x10", "1.2.3", ".", "-", "1_0"}) {
    INFO(bad);
    CHECK_FALSE(accepts(phi, bad));
    ++cases;
  }
  const CLI::Validator signed_real = cli::finite_in(-1, 1);
  for (const char* ok : {"-1", "-0", "-.25", "1"}) CHECK(accepts(signed_real, ok));
  for (const char* bad : {"--1", "-1.5", "+0.5", "-1e0"}) CHECK_FALSE(accepts(signed_real, bad));
  cases += 8;
  std::string text = "nan";
  CHECK(phi(text) == "'nan' is not a decimal number in [0, 64]");
  cases.report(38);
}
