// Floating-point MMA models: the ideal accumulator against the GMP oracle (exact sum, one
// rounding), every architecture equal to ideal where the hardware is exact (small integers),
// and hand-derived outcomes of the published probe inputs that pin each datapath parameter.
#include <gmpxx.h>

#include <bit>
#include <cmath>

#include "common/rng.hpp"
#include "exact/rational_oracle.hpp"
#include "formats/decode.hpp"
#include "formats/encode.hpp"
#include "mma/execute.hpp"
#include "support.hpp"

using namespace ozref;

namespace {

mpq_class value_of(const FormatSpec& f, uint32_t bits) { return oracle::rational(decode(f, bits)); }

uint32_t f32(float x) { return std::bit_cast<uint32_t>(x); }

std::vector<uint8_t> halves(std::initializer_list<uint16_t> v, size_t k) {
  std::vector<uint8_t> out(2 * k, 0);
  size_t i = 0;
  for (uint16_t h : v) out[i++] = uint8_t(h >> 8), out[i++] = uint8_t(h);
  return out;
}

uint16_t fp16(double x) {
  return static_cast<uint16_t>(encode(format_spec(FormatId::FP16), decode(format_spec(FormatId::FP64), std::bit_cast<uint64_t>(x)),
                                      Rounding::NearestEven, Overflow::NoSat).bits);
}

}  // namespace

TEST_CASE("ideal fp mma: exact sum and one rounding, against the GMP oracle", "[mma]") {
  Rng rng(test::seed());
  test::CaseCount cases("ideal fp8/fp16/fp4 elements");
  const mma::ArchSpec& ideal = mma::arch("ideal");
  for (const auto& spec : ideal.instructions) {
    if (spec.kind != mma::Kind::Float) continue;
    const FormatSpec& f = format_spec(spec.a_format);
    for (int i = 0; i < 300 * int(test::level()); ++i) {
      const size_t bytes = mma::operand_bytes(spec);
      std::vector<uint8_t> a(bytes), b(bytes);
      for (auto& v : a) v = uint8_t(rng.next());
      for (auto& v : b) v = uint8_t(rng.next());
      const uint32_t c = uint32_t(rng.next() & 0x8FFFFFFF) | 0x30000000u;  // finite, moderate
      // Skip draws with NaN or infinity elements: the special rules have their own test.
      bool finite = true;
      mpq_class sum = value_of(format_spec(FormatId::FP32), c);
      for (int k = 0; k < spec.k; ++k) {
        auto element = [&](const std::vector<uint8_t>& x) -> uint32_t {
          if (spec.packing == mma::Packing::Half) return uint32_t(x[2 * k]) << 8 | x[2 * k + 1];
          if (spec.packing == mma::Packing::PaddedFp4) return (x[k] >> 2) & 0xF;
          return x[k];
        };
        const uint32_t ea = element(a), eb = element(b);
        if (!decode(f, ea).is_finite() || !decode(f, eb).is_finite()) finite = false;
        else sum += value_of(f, ea) * value_of(f, eb);
      }
      if (!finite) continue;
      const oracle::Rounded r = oracle::round(sum, oracle::binary32(), true);
      const uint32_t got = mma::execute(spec, {a, b, c, {}, {}});
      INFO(spec.op << " case " << i);
      if (r.overflow) {
        REQUIRE((got & 0x7FFFFFFF) == 0x7F800000u);
      } else {
        const float expect = static_cast<float>(r.value.get_d());
        REQUIRE((got == f32(expect) || (expect == 0 && (got & 0x7FFFFFFF) == 0)));
      }
      ++cases;
    }
  }
  cases.report(1000);
}

TEST_CASE("every architecture equals ideal where the sum is exact (small integers)", "[mma]") {
  Rng rng(test::seed() + 1);
  test::CaseCount cases("exact-regime elements");
  for (const std::string& name : mma::arch_names()) {
    for (const auto& spec : mma::arch(name).instructions) {
      if (spec.kind != mma::Kind::Float) continue;
      const FormatSpec& f = format_spec(spec.a_format);
      for (int i = 0; i < 100; ++i) {
        std::vector<uint8_t> a(mma::operand_bytes(spec)), b(mma::operand_bytes(spec));
        for (int k = 0; k < spec.k; ++k) {
          // Integers in [-4, 4]: every format here holds them, and |sum| < 2^13 keeps every
          // accumulator (even F = 13 with a 13-bit output) exact.
          auto enc = [&](int x) {
            return uint32_t(encode(f, {x == 0 ? FloatClass::Zero : FloatClass::Normal, x < 0, uint64_t(std::abs(x)), 0},
                                   Rounding::NearestEven, Overflow::NoSat).bits);
          };
          const uint32_t ea = enc(int(rng.below(9)) - 4), eb = enc(int(rng.below(9)) - 4);
          if (spec.packing == mma::Packing::Half) {
            a[2 * k] = uint8_t(ea >> 8); a[2 * k + 1] = uint8_t(ea);
            b[2 * k] = uint8_t(eb >> 8); b[2 * k + 1] = uint8_t(eb);
          } else if (spec.packing == mma::Packing::PaddedFp4) {
            a[k] = uint8_t(ea << 2); b[k] = uint8_t(eb << 2);
          } else {
            a[k] = uint8_t(ea); b[k] = uint8_t(eb);
          }
        }
        const uint32_t c = f32(float(int(rng.below(2001)) - 1000));
        const uint32_t got = mma::execute(spec, {a, b, c, {}, {}});
        const uint32_t want = mma::execute(mma::instruction(mma::arch("ideal"), spec.op.find("wgmma") != std::string::npos
                                                                ? spec.op : spec.op), {a, b, c, {}, {}});
        INFO(name << " " << spec.op);
        REQUIRE((got == want || ((got | want) & 0x7FFFFFFF) == 0));
        ++cases;
      }
    }
  }
  cases.report(1000);
}

TEST_CASE("sm_90 f16 HMMA keeps 25 fraction bits after alignment and truncates the output", "[mma]") {
  const auto& spec = mma::instruction(mma::arch("sm_90"), "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  const auto& ideal = mma::instruction(mma::arch("ideal"), spec.op);
  // Sixteen products of 2^-25 (2^-12.5 squared is not a half; use 2^-12 * 2^-13) on C = 1:
  // each lies exactly on the 25th fraction bit below 2^0, so all survive: 1 + 2^-21.
  std::vector<uint8_t> a = halves({}, 16), b = halves({}, 16);
  for (int k = 0; k < 16; ++k) {
    a[2 * k] = uint8_t(fp16(0x1p-12) >> 8); a[2 * k + 1] = uint8_t(fp16(0x1p-12));
    b[2 * k] = uint8_t(fp16(0x1p-13) >> 8); b[2 * k + 1] = uint8_t(fp16(0x1p-13));
  }
  CHECK(mma::execute(spec, {a, b, f32(1.0f), {}, {}}) == f32(1.0f + 0x1p-21f));
  // One bit further (2^-26 each) every term is cut: the result stays 1, where an exact sum gives
  // 1 + 2^-22.
  for (int k = 0; k < 16; ++k) { b[2 * k] = uint8_t(fp16(0x1p-14) >> 8); b[2 * k + 1] = uint8_t(fp16(0x1p-14)); }
  CHECK(mma::execute(spec, {a, b, f32(1.0f), {}, {}}) == f32(1.0f));
  CHECK(mma::execute(ideal, {a, b, f32(1.0f), {}, {}}) == f32(1.0f + 0x1p-22f));
  // Output rounding toward zero: C = 1, one product 3 * 2^-24 (1.1b * 2^-23): 1 + 1.5 ulp is cut
  // to 1 + 1 ulp (ideal's nearest-even gives 1 + 2 ulp).
  a = halves({fp16(3 * 0x1p-12)}, 16);
  b = halves({fp16(0x1p-12)}, 16);
  CHECK(mma::execute(spec, {a, b, f32(1.0f), {}, {}}) == f32(1.0f + 0x1p-23f));
  CHECK(mma::execute(ideal, {a, b, f32(1.0f), {}, {}}) == f32(1.0f + 0x1p-22f));
}

TEST_CASE("cdna3 f16 MFMA: products truncated on their own maximum, then the sum and C floored on the larger", "[mma]") {
  // MMA-Sim's CDNA3 rule (mma/arch/cdna3.cpp), the outcomes derived by hand.
  const auto& spec = mma::instruction(mma::arch("cdna3"), "v_mfma_f32_32x32x8_f16");
  const auto& sm90 = mma::instruction(mma::arch("sm_90"), "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
  // One product 1 and C = -2^-30: the sum and C align on 2^0, C floored to 24 bits is -2^-24,
  // so D = 1 - 2^-24. NVIDIA's fused block truncates C toward zero: D = 1.
  const std::vector<uint8_t> one = halves({fp16(1.0)}, 8);
  CHECK(mma::execute(spec, {one, one, f32(-0x1p-30f), {}, {}}) == f32(1.0f - 0x1p-24f));
  CHECK(mma::execute(sm90, {halves({fp16(1.0)}, 16), halves({fp16(1.0)}, 16), f32(-0x1p-30f), {}, {}}) == f32(1.0f));
  CHECK(mma::execute(spec, {one, one, f32(0x1p-30f), {}, {}}) == f32(1.0f));  // a positive one floors to 0
  // Products -2^-24 and 2^-40 (2^-20 is an FP16 subnormal): aligned on 2^-24 they keep every bit,
  // s = -2^-24 + 2^-40. With C = 1 + 3 * 2^-23 both align on 2^0; s floored to 31 bits is -2^-24
  // (toward zero it would be -127 * 2^-31), so the sum 1 + 5 * 2^-24 is an FP32 tie, rounded to
  // even: 1 + 2^-22.
  const std::vector<uint8_t> a = halves({fp16(-0x1p-12), fp16(0x1p-20)}, 8), b = halves({fp16(0x1p-12), fp16(0x1p-20)}, 8);
  CHECK(mma::execute(spec, {a, b, f32(1.0f + 3 * 0x1p-23f), {}, {}}) == f32(1.0f + 0x1p-22f));
  // A NaN result is the default quiet NaN; 0 * inf is one.
  CHECK(mma::execute(spec, {halves({0x7C00}, 8), halves({0}, 8), 0, {}, {}}) == 0x7FC00000u);
  // BF16: a finite product of 2^128 counts as +inf (2^127 * 2 next to 2^127 * -1), two opposite
  // ones make NaN; and a group that overflowed to +inf meets a -inf operand in the next: NaN.
  const auto& bf16 = mma::instruction(mma::arch("cdna3"), "v_mfma_f32_32x32x8_bf16");
  CHECK(mma::execute(bf16, {halves({0x7F00, 0x7F00}, 8), halves({0x4000, 0xBF80}, 8), 0, {}, {}}) == 0x7F800000u);
  CHECK(mma::execute(bf16, {halves({0x7F00, 0x7F00}, 8), halves({0x4000, 0xC000}, 8), 0, {}, {}}) == 0x7FC00000u);
  const auto& bf16_k16 = mma::instruction(mma::arch("cdna3"), "v_mfma_f32_16x16x16_bf16");
  std::vector<uint8_t> chain_a = halves({}, 16), chain_b = halves({}, 16);
  for (int k = 0; k < 9; ++k) {
    const uint16_t x = k < 8 ? 0x7F00 : 0xFF80;  // 2^127 eight times (their sum overflows), then -inf
    chain_a[2 * k] = uint8_t(x >> 8), chain_a[2 * k + 1] = uint8_t(x), chain_b[2 * k] = 0x3F, chain_b[2 * k + 1] = 0x80;
  }
  CHECK(mma::execute(bf16_k16, {chain_a, chain_b, 0, {}, {}}) == 0x7FC00000u);
}

TEST_CASE("sm_90 fp8 wgmma keeps 13 bits, sm_90 fp8 mma.sync adds C after, to nearest", "[mma]") {
  const auto& wg = mma::instruction(mma::arch("sm_90"), "wgmma.mma_async.sync.aligned.m64nNk32.f32.e4m3.e4m3");
  const auto& ms = mma::instruction(mma::arch("sm_90"), "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
  const FormatSpec& e4 = format_spec(FormatId::E4M3);
  auto e4m3 = [&](int x) { return uint8_t(encode(e4, {FloatClass::Normal, x < 0, uint64_t(std::abs(x)), 0}, Rounding::NearestEven, Overflow::NoSat).bits); };
  // Integer sums above 2^14 lose their low bits on wgmma (the DeepSeek observation): 32 products
  // of 16 * 40 = 640 give 20480 + C; with C = 1 the 1 is truncated away.
  std::vector<uint8_t> a(32, e4m3(16)), b(32, e4m3(40));
  CHECK(mma::execute(wg, {a, b, f32(1.0f), {}, {}}) == f32(20480.0f));
  CHECK(mma::execute(ms, {a, b, f32(1.0f), {}, {}}) == f32(20481.0f));
  // mma.sync: the user's C is added by a separate FADD rounded to nearest: 2^24 + 1 (from the
  // products) + C = 1 rounds to 2^24 + 2, where one truncating fused sum would give 2^24.
  std::vector<uint8_t> x(32, 0), y(32, 0);
  x[0] = e4m3(1); y[0] = e4m3(1);
  CHECK(mma::execute(ms, {x, y, f32(16777216.0f), {}, {}}) == f32(16777216.0f));  // 2^24 + 1 -> tie, even
  x[1] = e4m3(2); y[1] = e4m3(1);  // products 1 + 2 = 3 in the first HMMA
  CHECK(mma::execute(ms, {x, y, f32(16777216.0f), {}, {}}) == f32(16777220.0f));  // 2^24 + 3 -> +4
}

TEST_CASE("the exponent floor: a zero C counts as 2^floor, so a floor below -126 keeps bits of tiny products", "[mma]") {
  // BF16 m16n8k16 with one block of 16, F = 24, toward zero. Four products of
  // a = (1 + 2^-7) 2^-68 and b = (1 + 2^-7) 2^-69: each 2^-137 + 2^-143 + 2^-151, the four
  // 2^-135 + 2^-141 + 2^-149, and C = +0. MMA-Sim's floor -126 (a zero C counts as 2^-126) keeps
  // bits down to 2^-150: every 2^-151 is cut, D = 2^-135 + 2^-141 = (2^14 + 2^8) 2^-149 = 0x00004100.
  // Khattak and Mikaitis's floor -133 (the zero C ignored) aligns on the products' 2^-137 and keeps
  // down to 2^-161: D = 0x00004101. (Hand-derived: exact binary sums, FP32 subnormals in 2^-149.)
  mma::InstructionSpec s = mma::instruction(mma::arch("sm_90"), "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  s.blocks = mma::one_block(16);
  s.block = {24, mma::OutputRounding::TowardZero, 23, -126};
  const uint16_t a_bits = (127 - 68) << 7 | 1, b_bits = (127 - 69) << 7 | 1;  // bf16: 1.0000001b * 2^e
  std::vector<uint8_t> a = halves({a_bits, a_bits, a_bits, a_bits}, 16), b = halves({b_bits, b_bits, b_bits, b_bits}, 16);
  CHECK(mma::execute(s, {a, b, 0u, {}, {}}) == 0x00004100u);
  s.block.exponent_floor = -133;
  CHECK(mma::execute(s, {a, b, 0u, {}, {}}) == 0x00004101u);
  // A nonzero C counts as itself under either floor: C = 2^-126 sets E = -126, so the 2^-151
  // bits are cut again (D = 2^-126 + 2^-135 + 2^-141, normal: 0x00804100).
  CHECK(mma::execute(s, {a, b, 0x00800000u, {}, {}}) == 0x00804100u);
  s.block.exponent_floor = -126;
  CHECK(mma::execute(s, {a, b, 0x00800000u, {}, {}}) == 0x00804100u);
}

TEST_CASE("zero_result_positive: a nonzero sum that rounds to zero gives +0, not a zero of its sign", "[mma]") {
  // BF16, one block of 16, F = 25, toward zero, floor -133. One product of a = -2^-75 and
  // b = 2^-75: the sum is -2^-150, below FP32's smallest subnormal 2^-149, so toward zero it
  // rounds to zero. IEEE keeps the sign (-0, 0x80000000); with zero_result_positive the result is
  // +0. A sum of -2^-149 is representable and keeps its sign either way; an exactly zero sum
  // (the product and its negation) is +0 either way. (Hand-derived.)
  mma::InstructionSpec s = mma::instruction(mma::arch("sm_90"), "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
  s.block.exponent_floor = -133;
  const uint16_t minus_2_75 = 0x8000 | (127 - 75) << 7, plus_2_75 = (127 - 75) << 7, plus_2_74 = (127 - 74) << 7;
  const std::vector<uint8_t> a = halves({minus_2_75}, 16), b = halves({plus_2_75}, 16), b_twice = halves({plus_2_74}, 16);
  for (bool positive : {false, true}) {
    s.block.zero_result_positive = positive;
    INFO("zero_result_positive " << positive);
    CHECK(mma::execute(s, {a, b, 0u, {}, {}}) == (positive ? 0u : 0x80000000u));
    CHECK(mma::execute(s, {a, b_twice, 0u, {}, {}}) == 0x80000001u);  // -2^-149
    CHECK(mma::execute(s, {halves({minus_2_75, minus_2_75}, 16), halves({plus_2_75, 0x8000 | plus_2_75}, 16), 0x80000000u, {}, {}}) == 0u);
  }
  // sm_90's own bf16 spec has it (the H100's answers below 2^-149, docs/models.md).
  CHECK(mma::instruction(mma::arch("sm_90"), "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32").block.zero_result_positive);
}
