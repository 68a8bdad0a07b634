// The open questions in the specs, each on inputs whose outcomes are derived by hand: a zero FP4
// group carrying the largest scales (sm_100/sm_120 against their "+zero-groups-ignored"
// variants) and an sm_80 half-K block that overflows before the second half; and the registry of
// variants (names, families, the error for an unknown name).
#include <bit>

#include "common/error.hpp"
#include "formats/decode.hpp"
#include "formats/encode.hpp"
#include "mma/execute.hpp"
#include "support.hpp"

using namespace ozref;

namespace {

uint32_t f32(float x) { return std::bit_cast<uint32_t>(x); }

uint16_t bf16(double x) {
  const EncodeResult e = encode(format_spec(FormatId::BF16), decode(format_spec(FormatId::FP64), std::bit_cast<uint64_t>(x)),
                                Rounding::NearestEven, Overflow::NoSat);
  REQUIRE(!e.inexact);
  return uint16_t(e.bits);
}

// bf16 operands of m16n8k16: the given (k, value) pairs, zeros elsewhere (two bytes each, big-endian).
std::vector<uint8_t> bf16_row(std::initializer_list<std::pair<int, double>> at) {
  std::vector<uint8_t> out(32, 0);
  for (const auto& [k, v] : at) {
    out[2 * k] = uint8_t(bf16(v) >> 8);
    out[2 * k + 1] = uint8_t(bf16(v));
  }
  return out;
}

}  // namespace

TEST_CASE("variants: names, families, and the unknown-name error", "[mma][variants]") {
  CHECK(mma::arch_family("sm_100") == std::vector<std::string>{"sm_100", "sm_100+zero-groups-ignored"});
  CHECK(mma::arch_family("sm_120+zero-groups-ignored") == std::vector<std::string>{"sm_120", "sm_120+zero-groups-ignored"});
  CHECK(mma::arch_family("sm_90") == std::vector<std::string>{"sm_90"});
  CHECK(mma::arch("sm_100+zero-groups-ignored").variant_of == "sm_100");
  CHECK(mma::arch("sm_100").variant_of.empty());
  try {
    mma::arch("sm_100+made-up");
    FAIL("accepted an unknown variant");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("unknown architecture 'sm_100+made-up'") != std::string::npos);
    CHECK(std::string(e.what()).find("sm_120+zero-groups-ignored") != std::string::npos);
  }
  CHECK_THROWS_AS(mma::arch_family("nope"), InputError);
}

TEST_CASE("zero groups: a cancelling FP4 group with the largest scales, under both readings", "[mma][variants]") {
  // Group 0: 1*1 + (-1)*1 = 0 (packed e2m1: 0x2 = 1, 0xA = -1, lower k in the lower nibble);
  // group 1: 0.5 * 0.5 = 0.25; groups 2 and 3 all zero under tiny scales.
  std::vector<uint8_t> a(32, 0), b(32, 0);
  a[0] = 0xA2;  // k0 = 1, k1 = -1
  b[0] = 0x22;  // k0 = k1 = 1
  a[8] = 0x01;  // k16 = 0.5
  b[8] = 0x01;
  const struct {
    const char* base;
    const char* op;
    std::vector<uint8_t> scale_a, scale_b;
    uint32_t ignored_result;  // the 0.25-group alone, exactly
    uint32_t aligned_plus_one;  // with C = 1 when the zero group sets the alignment
    const char* why;
  } cases[] = {
      // UE8M0: group 0 at 2^60 * 2^0, group 1 at 2^0: alignment 2^60 with F = 35 cuts 0.25 away.
      {"sm_100", "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X.ue8m0", {0xBB, 0x7F, 0x1B, 0x1B},
       {0x7F, 0x7F, 0x1B, 0x1B}, f32(0.25f), 0u, "2^60 zero group: C = 1 lies 60 bits below and is cut too"},
      // UE4M3: group 0 at 448 * 448 (exponent 16), group 1 at 2^-9 * 2^-9: 0.25 * 2^-18 = 2^-20
      // lies 36 bits below 2^16 and F = 35 cuts it; C = 1, 16 bits below, stays.
      {"sm_120", "mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3",
       {0x7E, 0x01, 0x00, 0x00}, {0x7E, 0x01, 0x00, 0x00}, f32(0x1p-20f), f32(1.0f), "448^2 zero group"},
  };
  test::CaseCount count("hand-derived zero-group results");
  for (const auto& c : cases) {
    INFO(c.base << ": " << c.why);
    const std::string variant = std::string(c.base) + "+zero-groups-ignored";
    const auto& aligns = mma::instruction(mma::arch(c.base), c.op);
    const auto& ignores = mma::instruction(mma::arch(variant), c.op);
    CHECK(mma::execute(aligns, {a, b, 0u, c.scale_a, c.scale_b}) == 0u);
    CHECK(mma::execute(ignores, {a, b, 0u, c.scale_a, c.scale_b}) == c.ignored_result);
    CHECK(mma::execute(aligns, {a, b, f32(1.0f), c.scale_a, c.scale_b}) == c.aligned_plus_one);
    CHECK(mma::execute(ignores, {a, b, f32(1.0f), c.scale_a, c.scale_b}) == f32(1.0f + std::bit_cast<float>(c.ignored_result)));
    // Without the zero group's large scale both readings agree.
    std::vector<uint8_t> small_a = c.scale_a, small_b = c.scale_b;
    small_a[0] = small_a[1];
    small_b[0] = small_b[1];
    CHECK(mma::execute(aligns, {a, b, 0u, small_a, small_b}) == c.ignored_result);
    CHECK(mma::execute(ignores, {a, b, 0u, small_a, small_b}) == c.ignored_result);
    count += 6;
  }
  count.report(12);
}

TEST_CASE("sm_80 bf16: a first half beyond FP32's range stays +-Inf through the second half", "[mma][variants]") {
  const auto& sm80 = mma::instruction(mma::arch("sm_80"), "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  const auto& sm90 = mma::instruction(mma::arch("sm_90"), sm80.op);
  const std::vector<uint8_t> b = bf16_row({{0, 0x1p64}, {1, 0x1p64}, {8, 0x1p64}, {9, 0x1p64}, {15, 0x1p100}});
  // 2^130 in the first half, -2^130 in the second: sm_80 stays +Inf; sm_90 (one block of 16,
  // as the H200 measured) cancels to 0.
  std::vector<uint8_t> a = bf16_row({{0, 0x1p66}, {8, -0x1p66}});
  CHECK(mma::execute(sm80, {a, b, 0u, {}, {}}) == 0x7F800000u);
  CHECK(mma::execute(sm90, {a, b, 0u, {}, {}}) == 0u);
  // -2^130 first, then 2^200: the first half's sign stays.
  a = bf16_row({{0, -0x1p66}, {15, 0x1p100}});
  CHECK(mma::execute(sm80, {a, b, 0u, {}, {}}) == 0xFF800000u);
  // In-range products 1.5 * 2^127 twice overflow the first half; -1.5 * 2^127 in the second
  // cannot bring it back on sm_80, and does on sm_90.
  a = bf16_row({{0, 0x1.8p63}, {1, 0x1.8p63}, {8, -0x1.8p63}});
  CHECK(mma::execute(sm80, {a, b, 0u, {}, {}}) == 0x7F800000u);
  CHECK(mma::execute(sm90, {a, b, 0u, {}, {}}) == f32(0x1.8p127f));
  // An infinite C wins over a finite product beyond range (no Inf - Inf): -Inf + 2^130 = -Inf.
  a = bf16_row({{0, 0x1p66}});
  CHECK(mma::execute(sm80, {a, b, 0xFF800000u, {}, {}}) == 0xFF800000u);
}
