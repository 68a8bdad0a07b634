// Base-13 digit conversion, two-limb residue tables and the low-precision GEMM helper, against
// exhaustive enumeration and independently written value rules.
#include <cstdlib>
#include <set>

#include "common/rng.hpp"
#include "mma/instruction.hpp"
#include "schemes/common/base13.hpp"
#include "schemes/common/lowp_gemm.hpp"
#include "schemes/common/moduli.hpp"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;

namespace {
const std::set<int64_t> kDigits = {0, 1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 8, -8, 12, -12};
}

TEST_CASE("base13: the greedy digits write every integer of [-X_p, X_p] and no wider range", "[schemes]") {
  test::CaseCount cases("base-13 conversions");
  int8_t d[8];
  for (int p = 1; p <= 5; ++p) {
    int64_t x_p = 1;
    for (int i = 0; i < p; ++i) x_p *= 13;
    x_p = (x_p - 1) / 3;  // the FP4 paper's X_p, written out here
    REQUIRE(base13_range(p) == x_p);
    for (int64_t x = -x_p; x <= x_p; ++x) {
      REQUIRE(to_base13(x, p, d));
      int64_t back = 0;
      for (int i = p - 1; i >= 0; --i) {
        REQUIRE(kDigits.count(d[i]) == 1);
        REQUIRE(std::abs(d[i]) <= 8);
        back = back * 13 + d[i];
      }
      REQUIRE(back == x);
      ++cases;
    }
    INFO("p = " << p);
    REQUIRE_FALSE((to_base13(x_p + 1, p, d) && to_base13(-x_p - 1, p, d)));
  }
  cases.report(2 * 9520);
}

TEST_CASE("base13: two-limb tables exist exactly for the coverable moduli and represent every class", "[schemes]") {
  const std::vector<int64_t> candidates = fp4_two_limb_candidates();
  const std::set<int64_t> coverable(candidates.begin(), candidates.end());
  test::CaseCount cases("two-limb residues");
  for (int64_t m = 2; m <= 169; ++m) {
    INFO("m = " << m);
    if (!coverable.count(m)) {
      REQUIRE_THROWS(TwoLimbTable(m));
      continue;
    }
    const TwoLimbTable t(m);
    for (int64_t r = -(m / 2); r <= (m - 1) / 2; ++r) {
      const auto [c0, c1] = t.limbs(r);
      REQUIRE(kDigits.count(c0) == 1);
      REQUIRE(kDigits.count(c1) == 1);
      REQUIRE(((c0 + 13 * c1 - r) % m + m) % m == 0);
      ++cases;
    }
  }
  cases.report(1000);
}

TEST_CASE("lowp: representable integers follow each format's value set", "[schemes]") {
  const LowpGemm int8(scheme_instruction("ideal", LowpFormat::Int8, "", "test"), LowpFormat::Int8);
  const LowpGemm e4m3(scheme_instruction("ideal", LowpFormat::E4M3, "", "test"), LowpFormat::E4M3);
  const LowpGemm e2m1(scheme_instruction("ideal", LowpFormat::E2M1, "", "test"), LowpFormat::E2M1);
  for (int v = -128; v <= 127; ++v) {
    INFO("v = " << v);
    const int mag = std::abs(v);
    int bits = 0;  // significant bits of |v| after its trailing zeros
    for (int x = mag; x; x >>= 1) ++bits;
    const int trailing = mag ? __builtin_ctz(static_cast<unsigned>(mag)) : 0;
    CHECK(int8.representable(v));
    CHECK(e4m3.representable(v) == (mag == 0 || bits - trailing <= 4));  // E4M3: 4 significant bits
    CHECK(e2m1.representable(v) == (kDigits.count(v) == 1));               // E2M1 doubled is S
  }
  CHECK_FALSE(e4m3.representable(-129));
  CHECK_FALSE(e4m3.representable(128));
}

TEST_CASE("lowp: outputs are read back as the integers they stand for, non-integers flagged", "[schemes]") {
  const LowpGemm e4m3(scheme_instruction("ideal", LowpFormat::E4M3, "", "test"), LowpFormat::E4M3);
  const LowpGemm e2m1(scheme_instruction("ideal", LowpFormat::E2M1, "", "test"), LowpFormat::E2M1);
  const LowpGemm int8(scheme_instruction("ideal", LowpFormat::Int8, "", "test"), LowpFormat::Int8);
  CHECK(e4m3.integer_output(0x40400000u) == 3);     // 3.0f
  CHECK(e4m3.integer_output(0xC6FFFE00u) == -32767);  // -32767.0f
  CHECK(e4m3.integer_output(0x3F000000u) == kNotInteger);  // 0.5f
  CHECK(e2m1.integer_output(0x3F000000u) == 2);      // 0.5f in quarter units
  CHECK(e2m1.integer_output(0x3E800000u) == 1);      // 0.25f
  CHECK(e2m1.integer_output(0x3E000000u) == kNotInteger);  // 0.125f
  CHECK(e4m3.integer_output(0x7FC00000u) == kNotInteger);  // NaN
  CHECK(e4m3.integer_output(0x80000000u) == 0);      // -0.0f
  CHECK(int8.integer_output(0xFFFFFFFFu) == -1);
  CHECK(e2m1.output_value(0x3E000000u) == 0.5);       // 0.125f: 0.5 quarters
}

TEST_CASE("lowp: a GEMM of digits is exact on an exact accumulator and the check catches a corrupted output", "[schemes]") {
  Rng rng(test::seed());
  const std::vector<int64_t> s(kDigits.begin(), kDigits.end());
  for (const std::string arch : {"ideal", "sm_100", "sm_120"}) {
    const LowpGemm g(scheme_instruction(arch, LowpFormat::E2M1, "", "test"), LowpFormat::E2M1);
    const size_t m = 5, n = 7, k = 77;  // K not a multiple of the instruction's 32: padded
    std::vector<int8_t> a(m * k), b(k * n);
    for (auto& v : a) v = int8_t(s[rng.next() % s.size()]);
    for (auto& v : b) v = int8_t(s[rng.next() % s.size()]);
    std::vector<uint32_t> c = g.run(m, n, k, a.data(), b.data(), 1);
    StageReport clean;
    REQUIRE(check_lowp_gemm(g, m, n, k, a.data(), b.data(), false, c, "gemm.c", "clean", clean) == 0);
    REQUIRE(clean.violations == 0);
    c[3 * n + 4] ^= 1u << 22;  // one flipped fraction bit
    StageReport hit;
    REQUIRE(check_lowp_gemm(g, m, n, k, a.data(), b.data(), false, c, "gemm.c", "corrupted", hit) == 1);
    REQUIRE(hit.first_violation.find("gemm.c[corrupted, i 3, j 4]: found ") != std::string::npos);
  }
}

TEST_CASE("lowp: int16 operands and B stored by columns give the outputs of int8 operands with B by rows", "[schemes]") {
  Rng rng(test::seed());
  const size_t m = 9, n = 11, k = 70;  // K padded to the instruction's 32
  size_t cases = 0;
  for (const auto& [arch, format] : {std::pair{"ideal", LowpFormat::Int8}, std::pair{"sm_90", LowpFormat::Int8},
                                     std::pair{"sm_90", LowpFormat::E4M3}, std::pair{"sm_120", LowpFormat::E2M1}}) {
    const LowpGemm g(scheme_instruction(arch, format, "", "test"), format);
    std::vector<int8_t> a(m * k), b(k * n);
    auto draw = [&] {
      for (;;)
        if (const int v = int(rng.next() % 256) - 128; g.representable(v)) return int8_t(v);
    };
    for (auto& v : a) v = draw();
    for (auto& v : b) v = draw();
    std::vector<int16_t> a16(a.begin(), a.end()), bt16(n * k);
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) bt16[j * k + kk] = b[kk * n + j];
    const std::vector<uint32_t> want = g.run(m, n, k, a.data(), b.data(), 1);
    std::vector<uint32_t> got(m * n, 0xDEADBEEFu);
    g.run_into(m, n, k, a16.data(), bt16.data(), true, 2, std::span<uint32_t>(got));
    CHECK(got == want);
    StageReport clean;  // and the full check reads the same layout: it agrees with the exact products
    CHECK(check_lowp_gemm(g, m, n, k, a16.data(), bt16.data(), true, got, "gemm.c", "by columns", clean) == 0);
    ++cases;
  }
  std::printf("lowp layouts: %zu instruction/format pairs, %zux%zux%zu, seed %llu\n", cases, m, n, k,
              (unsigned long long)test::seed());
  const LowpGemm int8(scheme_instruction("ideal", LowpFormat::Int8, "", "test"), LowpFormat::Int8);
  const std::vector<int16_t> wide = {1, 200, 3, 4}, ones = {1, 1, 1, 1};
  std::vector<uint32_t> d(1);
  CHECK_THROWS_WITH(int8.run_into(1, 1, 4, wide.data(), ones.data(), true, 1, std::span<uint32_t>(d)),
                    Catch::Contains("200 has no exact int8 encoding"));
}

TEST_CASE("lowp: the instruction choice follows --op and the architecture", "[schemes]") {
  CHECK(scheme_instruction("sm_90", LowpFormat::E4M3, "", "t").op == "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
  CHECK(scheme_instruction("sm_100", LowpFormat::E4M3, "", "t").op == "tcgen05.mma.cta_group::1.kind::f8f6f4.e4m3.e4m3");
  CHECK(scheme_instruction("sm_90", LowpFormat::E4M3, "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3", "t").op ==
        "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3");
  CHECK_THROWS_WITH(scheme_instruction("sm_90", LowpFormat::E2M1, "", "ozaki2-fp4"), Catch::Contains("sm_90 models no e2m1 instruction"));
  CHECK_THROWS_WITH(scheme_instruction("sm_80", LowpFormat::E4M3, "", "ozaki2-fp8"), Catch::Contains("sm_80 models no e4m3"));
  CHECK_THROWS_WITH(scheme_instruction("sm_90", LowpFormat::E4M3, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", "ozaki2-fp8"),
                    Catch::Contains("does not multiply e4m3"));
}

TEST_CASE("stage report: parts checked apart merge in order, the earliest violation first", "[schemes]") {
  StageReport whole, clean, first, second;
  first.violate("modulus 0: a");
  first.violate("modulus 0: b");
  second.violate("modulus 1: c");
  for (const StageReport* part : {&clean, &first, &second}) whole.absorb(*part);
  CHECK(whole.violations == 3);
  CHECK(whole.first_violation == "modulus 0: a");
  StageReport own;
  own.violate("own");
  own.absorb(second);
  CHECK(own.violations == 2);
  CHECK(own.first_violation == "own");
}
