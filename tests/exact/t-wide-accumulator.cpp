// The wide accumulator against GMP integers: random signed additions at random offsets, then the
// leading bits and sticky flag it reports.
#include <gmpxx.h>

#include "common/rng.hpp"
#include "formats/wide_accumulator.hpp"
#include "support.hpp"

using namespace ozref;

TEST_CASE("wide accumulator: sums and leading bits agree with GMP", "[exact]") {
  Rng rng(test::seed());
  test::CaseCount cases("accumulator sequences");
  const uint64_t n = 3000 * test::level();
  for (uint64_t t = 0; t < n; ++t) {
    const size_t words = 1 + rng.below(8);
    std::vector<uint64_t> acc(words, 0);
    mpz_class ref = 0;
    const int adds = 1 + int(rng.below(20));
    for (int i = 0; i < adds; ++i) {
      // A magnitude of up to 106 bits (an exact FP64 product) placed so that 20 of them still fit.
      const unsigned room = unsigned(words * 64 - 6);
      const unsigned bits = 1 + unsigned(rng.below(std::min(106u, room)));
      const u128 mag = ((u128{rng.next()} << 64) | rng.next()) >> (128 - bits);
      const unsigned shift = unsigned(rng.below(room - bits + 1));
      const bool negative = rng.below(2);
      accumulate(acc, negative, mag, shift);
      mpz_class m(std::to_string(static_cast<uint64_t>(mag >> 64)));
      m <<= 64;
      m += mpz_class(std::to_string(static_cast<uint64_t>(mag)));
      m <<= shift;
      ref += negative ? mpz_class(-m) : m;
    }
    bool sticky = false;
    const int base = int(rng.below(200)) - 100;
    const ExactValue v = leading_bits(acc, base, sticky);
    INFO("sequence " << t);
    if (ref == 0) {
      REQUIRE(v.cls == FloatClass::Zero);
      ++cases;
      continue;
    }
    REQUIRE(v.negative == (ref < 0));
    mpz_class mag = abs(ref);
    const long bits = long(mpz_sizeinbase(mag.get_mpz_t(), 2));
    const long drop = bits > 64 ? bits - 64 : 0;
    mpz_class top = mag >> drop;
    REQUIRE(top == mpz_class(std::to_string(v.significand)));
    REQUIRE(v.exponent == base + drop);
    REQUIRE(sticky == ((top << drop) != mag));
    ++cases;
  }
  cases.report(n);
}
