// Integer MMA models against plain int64 arithmetic: the exact sum, wrapped to 32 bits, or
// clamped with .satfinite; every signedness combination, random and extreme operands.
#include <algorithm>

#include "common/rng.hpp"
#include "mma/execute.hpp"
#include "support.hpp"

using namespace ozref;

TEST_CASE("integer mma: wraparound and saturation match int64 arithmetic", "[mma]") {
  Rng rng(test::seed());
  test::CaseCount cases("integer mma elements");
  test::CaseCount overflowed("integer mma elements past the int32 range");
  for (const char* arch_name : {"sm_80", "sm_90", "sm_120", "ideal"}) {
    for (const auto& spec : mma::arch(arch_name).instructions) {
      if (spec.kind != mma::Kind::Integer) continue;
      for (int i = 0; i < 2000 * int(test::level()); ++i) {
        std::vector<uint8_t> a(32), b(32);
        const bool extreme = i % 4 == 0;
        for (auto& v : a) v = extreme ? (spec.a_signed ? 0x80 : 0xFF) : uint8_t(rng.next());
        for (auto& v : b) v = extreme ? (spec.b_signed ? 0x80 : 0xFF) : uint8_t(rng.next());
        const uint32_t c = i % 3 == 0 ? 0x7FFFFF00u + uint32_t(rng.below(256)) : uint32_t(rng.next());
        int64_t exact = int32_t(c);
        for (int k = 0; k < 32; ++k)
          exact += (spec.a_signed ? int64_t(int8_t(a[k])) : int64_t(a[k])) * (spec.b_signed ? int64_t(int8_t(b[k])) : int64_t(b[k]));
        const int64_t expect = spec.saturate ? std::clamp<int64_t>(exact, INT32_MIN, INT32_MAX)
                                             : int64_t(int32_t(uint32_t(uint64_t(exact))));
        INFO(arch_name << " " << spec.op << " case " << i);
        REQUIRE(int32_t(mma::execute(spec, {a, b, c, {}, {}})) == expect);
        ++cases;
        if (exact > INT32_MAX || exact < INT32_MIN) ++overflowed;
      }
    }
  }
  cases.report(4 * 8 * 2000 - 4 * 8 * 2000 / 2);
  overflowed.report(1000);  // the overflow paths really ran
}
