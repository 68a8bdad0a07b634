// scaled_long_double (exact/scaled_long_double.hpp), the residuals' construction, against
// std::ldexp, which is exact for any uint64_t significand in the x87 format: equal bit for bit at
// random significands over the whole normal range, at its two ends, and past them (subnormal,
// overflow), where the function hands the case to std::ldexp.
#include <cmath>
#include <cstring>

#include "common/rng.hpp"
#include "exact/scaled_long_double.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
// The 80 significant bits of a long double (its 6 padding bytes are not compared).
bool same_bits(long double x, long double y) { return std::memcmp(&x, &y, 10) == 0; }
}  // namespace

TEST_CASE("scaled_long_double: significand * 2^exponent, bit for bit std::ldexp's", "[exact]") {
  Rng rng(test::seed());
  test::CaseCount cases("scaled_long_double cases");
  auto check = [&](uint64_t sig, int e) {
    INFO("significand " << sig << ", exponent " << e);
    CHECK(same_bits(scaled_long_double(sig, e), std::ldexp(static_cast<long double>(sig), e)));
    ++cases;
  };
  for (int i = 0; i < 200000; ++i) {
    const uint64_t sig = rng.next() >> rng.below(64);
    check(sig, static_cast<int>(rng.below(2 * 16500)) - 16500 - 60);
  }
  for (uint64_t sig : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}, uint64_t{1} << 63, uint64_t{0x8000000000000001}})
    for (int e : {-16445, -16446, -16383, -16382, -16381, -1100, -1, 0, 1, 1023, 16318, 16319, 16320, 16383, 16384})
      check(sig, e);
  cases.report(200000 + 5 * 15);
}
