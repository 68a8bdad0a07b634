#include "infer/queries.hpp"

#include <algorithm>

#include "formats/decode.hpp"
#include "mma/execute.hpp"

namespace ozref::infer {
namespace {

using mma::InstructionSpec;

// A finite element of `f` with exponent field near `center` (within `spread`), random sign and
// fraction; a random special value with probability 1/64 where the format has one.
uint32_t element(const FormatSpec& f, int center, int spread, Rng& rng, bool short_fraction = false) {
  const uint32_t sign = f.is_signed && rng.below(2) ? 1u << (f.bits - 1) : 0;
  if (rng.below(64) == 0 && f.nan_rule != NanRule::None)
    return static_cast<uint32_t>(rng.below(2) ? f.canonical_nan() : f.max_finite_encoding() + (f.has_infinity ? 1 : 0)) | sign;
  const int top = static_cast<int>((f.max_finite_encoding() >> f.fraction_bits) & f.exponent_field_max());
  for (;;) {  // only e4m3's NaN (exponent and fraction all ones) is drawn and redrawn
    const int e = std::clamp(center + static_cast<int>(rng.below(2 * spread + 1)) - spread, 0, top);
    const uint32_t bits = sign | static_cast<uint32_t>(e) << f.fraction_bits | static_cast<uint32_t>(rng.next() & f.fraction_mask() & (short_fraction ? f.fraction_mask() << (f.fraction_bits - 1) : ~0ull));
    if (classify(f, bits) != FloatClass::NaN && classify(f, bits) != FloatClass::Infinity) return bits;
  }
}

// Every product just below 2^-126 (at most 2^-127, down to 2^-142) and C zero or subnormal: the
// alignment exponent's floor (-126, -132, -133) shows only here, through the carries of the terms
// that one floor keeps and another cuts.
void fill_tiny(const InstructionSpec& s, MmaRecord& q, Rng& rng) {
  const FormatSpec& fa = format_spec(s.a_format);
  const FormatSpec& fb = format_spec(s.b_format);
  const int target = -127 - static_cast<int>(rng.below(16)), ea = target / 2, eb = target - ea;
  const int top_a = static_cast<int>(fa.exponent_field_max()), top_b = static_cast<int>(fb.exponent_field_max());
  for (int k = 0; k < s.k; ++k) {
    set_element(s, q.a, k, element(fa, std::clamp(ea + fa.bias, 0, top_a), 0, rng));
    set_element(s, q.b, k, element(fb, std::clamp(eb + fb.bias, 0, top_b), 0, rng));
  }
  q.c = rng.below(2) ? (rng.below(2) ? 0x80000000u : 0u) : element(format_spec(FormatId::FP32), 0, 0, rng);
}

// Two products of one fused group (k and k ^ 1 share one in every schedule) and C zero: 2^-(150 - j),
// on a rounding tie of FP32's subnormals kept to 23 - j fraction bits (j = 0 half the time, else
// 0..15), and 2^-(134..180), which one alignment floor and width keep and the next cut. Below the
// tie, nearest-even breaks the tie by it; above, it shows on the subnormal grid itself; against the
// tie's sign, it moves a sum rounded toward zero. The floors -132 and -133 part only on such
// terms. Where the products cannot reach that low (FP16, FP8):
// fill_tiny.
void fill_subnormal_tie(const InstructionSpec& s, MmaRecord& q, Rng& rng) {
  const FormatSpec& fa = format_spec(s.a_format);
  const FormatSpec& fb = format_spec(s.b_format);
  auto fields = [&](int exponent, int& field_a, int& field_b) {  // 2^exponent as two normal powers of two
    field_a = exponent / 2 + fa.bias, field_b = exponent - exponent / 2 + fb.bias;
    return field_a >= 1 && field_b >= 1 && field_a <= static_cast<int>(fa.exponent_field_max()) && field_b <= static_cast<int>(fb.exponent_field_max());
  };
  int a0, b0, a1, b1;
  const int tie = -150 + (rng.below(2) ? 0 : static_cast<int>(rng.below(16)));  // mostly FP32's own grid
  const int tiny = -134 - static_cast<int>(rng.below(47));
  if (s.k < 2 || !fields(tie, a0, b0) || !fields(tiny, a1, b1)) return fill_tiny(s, q, rng);
  const int k0 = static_cast<int>(rng.below(static_cast<uint64_t>(s.k)));
  // Signs drawn apart: a tiny term against the tie moves a sum rounded toward zero down a step
  // where it is kept, and a negative sum below 2^-149 shows the sign of a zero result.
  auto sign = [&] { return rng.below(2) ? static_cast<uint32_t>(fa.sign_mask()) : 0u; };
  const uint32_t tie_sign = sign(), tiny_sign = sign();
  set_element(s, q.a, k0, tie_sign | static_cast<uint32_t>(a0) << fa.fraction_bits), set_element(s, q.b, k0, static_cast<uint32_t>(b0) << fb.fraction_bits);
  set_element(s, q.a, k0 ^ 1, tiny_sign | static_cast<uint32_t>(a1) << fa.fraction_bits), set_element(s, q.b, k0 ^ 1, static_cast<uint32_t>(b1) << fb.fraction_bits);
  q.c = rng.below(2) ? 0x80000000u : 0u;
}

// Makes product k0 a power of two, 2^E, and adds a product of 2^(E - 24) in its fused group (k0 ^ 2
// shares it in consecutive groups of 4 or more, k0 ^ 4 in sm_90's k mod 4 split): their FP32 sum
// is a tie, which nearest-even breaks by the terms below it, so a small term that one F keeps and
// the next cuts shows even where the large terms' own bits fit FP32.
void add_tie(const InstructionSpec& s, MmaRecord& q, int k0, int ca, int cb, Rng& rng) {
  const FormatSpec& fa = format_spec(s.a_format);
  const FormatSpec& fb = format_spec(s.b_format);
  const int top_a = static_cast<int>(fa.exponent_field_max()), top_b = static_cast<int>(fb.exponent_field_max());
  const int ta = std::clamp(ca - 12, 1, top_a), tb = ca + cb - 24 - ta;  // biased: ta + tb = ca + cb - 24
  if (ca < 1 || cb < 1 || tb < 1 || tb > top_b) return;
  auto power = [](const FormatSpec& f, int field) { return static_cast<uint32_t>(field) << f.fraction_bits; };
  const int k1 = k0 ^ (rng.below(2) ? 2 : 4);
  set_element(s, q.a, k0, power(fa, ca)), set_element(s, q.b, k0, power(fb, cb));
  set_element(s, q.a, k1, power(fa, ta)), set_element(s, q.b, k1, power(fb, tb));
}

// An alignment probe: one product and, d = 0..48 binades below it, a second product of its fused
// group (k and k ^ 1 share one in every schedule) or C above it, where adjacent alignment widths F
// part (a term's low bits just inside one F and cut by the next). Narrow formats' products span a
// few bits, so random data rarely puts two terms that far apart (about 1 in 10^4).
void fill_probe(const InstructionSpec& s, MmaRecord& q, Rng& rng) {
  const FormatSpec& fa = format_spec(s.a_format);
  const FormatSpec& fb = format_spec(s.b_format);
  const int k0 = static_cast<int>(rng.below(static_cast<uint64_t>(s.k))), d = static_cast<int>(rng.below(49));
  // The large product high enough that the small one, d binades down, still exists where it can.
  auto high = [&rng](const FormatSpec& f, int down) {
    const int top = static_cast<int>(f.exponent_field_max()), low = std::min(down, top);
    return low + static_cast<int>(rng.below(static_cast<uint64_t>(top - low + 1)));
  };
  const int ca = high(fa, d / 2), cb = high(fb, d - d / 2);
  set_element(s, q.a, k0, element(fa, ca, 0, rng));
  set_element(s, q.b, k0, element(fb, cb, 0, rng));
  const FormatSpec& f32 = format_spec(FormatId::FP32);
  if (s.k >= 2 && rng.below(2)) {  // the small term a product of the same group; C out of the way
    set_element(s, q.a, k0 ^ 1, element(fa, std::max(ca - d / 2, 0), 0, rng));
    set_element(s, q.b, k0 ^ 1, element(fb, std::max(cb - (d - d / 2), 0), 0, rng));
    q.c = rng.below(2) ? 0u : element(f32, 0, 0, rng);
    if (s.k >= 8 && rng.below(2)) add_tie(s, q, k0, ca, cb, rng);
    return;
  }
  q.c = element(f32, std::clamp(ca - fa.bias + cb - fb.bias + 127 + d, 0, 254), 0, rng);
}

// Every product positive, of one exponent and a significand of at least 1.75: their sum carries
// several bits past E, so a sum of F + 2 + log2(n) bits needs rounding to FP32 even where F < 23,
// and toward-zero and nearest-even part on its last bits.
void fill_carry(const InstructionSpec& s, MmaRecord& q, Rng& rng) {
  const FormatSpec& fa = format_spec(s.a_format);
  const FormatSpec& fb = format_spec(s.b_format);
  const int ca = static_cast<int>(rng.below(fa.exponent_field_max() + 1)), cb = static_cast<int>(rng.below(fb.exponent_field_max() + 1));
  auto large = [&rng](const FormatSpec& f, int center) {
    const uint32_t top_bits = f.fraction_bits >= 2 ? 3u << (f.fraction_bits - 2) : 0;
    return (element(f, center, 0, rng) | top_bits) & ~static_cast<uint32_t>(f.sign_mask());
  };
  for (int k = 0; k < s.k; ++k) {
    set_element(s, q.a, k, large(fa, ca));
    set_element(s, q.b, k, large(fb, cb));
  }
  q.c = rng.below(2) ? 0u : element(format_spec(FormatId::FP32), std::clamp(ca - fa.bias + cb - fb.bias + 127, 0, 254), 0, rng) & 0x7FFFFFFFu;
}

void fill_float(const InstructionSpec& s, MmaRecord& q, Rng& rng) {
  if (rng.below(8) == 0) return fill_tiny(s, q, rng);
  if (rng.below(8) == 0) return fill_subnormal_tie(s, q, rng);
  if (rng.below(8) == 0) return fill_carry(s, q, rng);
  if (rng.below(4) == 0) return fill_probe(s, q, rng);
  const FormatSpec& fa = format_spec(s.a_format);
  const FormatSpec& fb = format_spec(s.b_format);
  const int density_choices[] = {1, 2, 3, 4, s.k / 4, s.k / 2, s.k};
  const int nonzero = std::max(1, density_choices[rng.below(7)]);
  const int spreads[] = {0, 1, 3, 8, 64};
  const int spread = spreads[rng.below(5)];
  const int ca = static_cast<int>(rng.below(fa.exponent_field_max() + 1)), cb = static_cast<int>(rng.below(fb.exponent_field_max() + 1));
  // Fractions of at most one bit make sums that land exactly on a rounding tie, where a term
  // truncated far below decides the rounding. Positive products (one in four) add up past E by
  // the carries: sums wider than FP32, where toward-zero and nearest-even part even for F < 23.
  const bool short_fraction = rng.below(3) == 0, positive = rng.below(4) == 0;
  const uint32_t keep_a = positive ? ~fa.sign_mask() : ~0u, keep_b = positive ? ~fb.sign_mask() : ~0u;
  for (int n = 0; n < nonzero; ++n) {
    const int k = static_cast<int>(rng.below(static_cast<uint64_t>(s.k)));
    set_element(s, q.a, k, element(fa, ca, spread, rng, short_fraction) & keep_a);
    set_element(s, q.b, k, element(fb, cb, spread, rng, short_fraction) & keep_b);
  }
  if (s.k >= 2 && rng.below(4) == 0) {  // products k0 and k1 cancel exactly
    // k1 next to k0 half the time: a fused or exact group that sums to zero
    const int k0 = static_cast<int>(rng.below(static_cast<uint64_t>(s.k)));
    const int k1 = rng.below(2) ? k0 ^ 1 : (k0 + 1 + static_cast<int>(rng.below(static_cast<uint64_t>(s.k - 1)))) % s.k;
    set_element(s, q.a, k1, mma::element_bits(s, q.a, k0));
    set_element(s, q.b, k1, mma::element_bits(s, q.b, k0) ^ (1u << (fb.bits - 1)));
  }
  // C near the scale of a product of the centre exponents, or anywhere, or zero.
  const int product_exp = ca - fa.bias + cb - fb.bias + 127;
  const int c_exp = rng.below(6) == 0 ? static_cast<int>(rng.below(255)) : product_exp + static_cast<int>(rng.below(2 * 64 + 1)) - 80;
  const FormatSpec& f32 = format_spec(FormatId::FP32);
  q.c = rng.below(8) == 0 ? (rng.below(2) ? 0x80000000u : 0u) : element(f32, std::clamp(c_exp, 0, 254), 0, rng, short_fraction);
}

void fill_scales(const InstructionSpec& s, MmaRecord& q, Rng& rng) {
  const FormatSpec& f = format_spec(s.scale_format);
  const int center = f.bias + static_cast<int>(rng.below(9)) - 4;
  const int spreads[] = {0, 2, 8};
  const int spread = spreads[rng.below(3)];
  for (auto* scales : {&q.scale_a, &q.scale_b})
    for (uint8_t& byte : *scales) byte = static_cast<uint8_t>(rng.below(128) ? element(f, center, spread, rng) : f.canonical_nan());
}

// A group of 8 or 16 products that sums to zero (one product and its negation) under the largest
// scales: whether such a group still sets the alignment exponent shows only here.
void zero_group(const InstructionSpec& s, MmaRecord& q, Rng& rng) {
  const int g = std::min(s.k, 8 << rng.below(2));
  const int k0 = g * static_cast<int>(rng.below(static_cast<uint64_t>(s.k / g)));
  const FormatSpec& f = format_spec(s.a_format);
  for (int k = k0; k < k0 + g; ++k) set_element(s, q.a, k, 0), set_element(s, q.b, k, 0);
  const uint32_t x = element(f, static_cast<int>(rng.below(f.exponent_field_max() + 1)), 0, rng);
  const uint32_t y = element(f, static_cast<int>(rng.below(f.exponent_field_max() + 1)), 0, rng);
  set_element(s, q.a, k0, x), set_element(s, q.a, k0 + 1, x);
  set_element(s, q.b, k0, y), set_element(s, q.b, k0 + 1, y ^ (1u << (f.bits - 1)));
  const size_t block = static_cast<size_t>(k0 / s.scale_block);
  const uint8_t top = format_spec(s.scale_format).id == FormatId::UE8M0 ? 0xFE : 0x7E;  // largest finite
  for (auto* scales : {&q.scale_a, &q.scale_b})
    (*scales)[block] = static_cast<uint8_t>(std::min<int>(top, *std::max_element(scales->begin(), scales->end()) % (top + 1) + 3));
}

void fill_integer(MmaRecord& q, Rng& rng) {
  const bool extreme = rng.below(2);  // all elements at the ends of the range: sums that saturate
  for (auto* operand : {&q.a, &q.b})
    for (uint8_t& byte : *operand) byte = static_cast<uint8_t>(extreme ? (rng.below(2) ? 0x7F : 0x80) + rng.below(2) : rng.next());
  const uint32_t near_limit[] = {0x7FFFFFFFu - static_cast<uint32_t>(rng.below(1u << 20)), 0x80000000u + static_cast<uint32_t>(rng.below(1u << 20)),
                                 static_cast<uint32_t>(rng.next())};
  q.c = near_limit[rng.below(3)];
}

}  // namespace

void set_element(const InstructionSpec& s, std::vector<uint8_t>& operand, int k, uint32_t bits) {
  switch (s.packing) {
    case mma::Packing::Byte: operand[k] = static_cast<uint8_t>(bits); return;
    case mma::Packing::Half:
      operand[2 * k] = static_cast<uint8_t>(bits >> 8), operand[2 * k + 1] = static_cast<uint8_t>(bits);
      return;
    case mma::Packing::PaddedFp4: operand[k] = static_cast<uint8_t>((bits & 0xF) << 2); return;
    case mma::Packing::PackedFp4: {
      const int shift = 4 * (k % 2);
      operand[k / 2] = static_cast<uint8_t>((operand[k / 2] & ~(0xF << shift)) | (bits & 0xF) << shift);
      return;
    }
  }
}

MmaRecord random_query(const InstructionSpec& s, Rng& rng) {
  MmaRecord q;
  q.op = s.op;
  q.a.assign(mma::operand_bytes(s), 0);
  q.b.assign(mma::operand_bytes(s), 0);
  q.scale_a.assign(mma::scale_bytes(s), 0);
  q.scale_b.assign(mma::scale_bytes(s), 0);
  if (s.kind == mma::Kind::Integer) fill_integer(q, rng);
  else fill_float(s, q, rng);
  if (s.kind == mma::Kind::BlockScaled) fill_scales(s, q, rng);
  if (s.kind == mma::Kind::BlockScaled && s.k >= 8 && rng.below(3) == 0) zero_group(s, q, rng);
  return q;
}

}  // namespace ozref::infer
