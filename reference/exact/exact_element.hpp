// The per-element arithmetic of the sliced exact product on the GPU (device/exact/), compiled for
// both sides: device/exact's kernels are loops over these functions, and exact/gpu_exact_model.cpp
// runs the same functions on the CPU, so that the host tests hold the GPU's arithmetic against
// exact_gemm without a GPU. Integers only: bit patterns in, bit patterns out.
#pragma once
#include <cstdint>

#include "common/host_device.hpp"

namespace ozref::exact_element {

constexpr int kMaxModuli = 49;  // int8_moduli(): every pairwise coprime modulus from 256 down
constexpr int kCrtWords = 7;    // their product is below 2^392

// The moduli of one slice pair and what Garner's algorithm needs of them.
struct CrtTables {
  int count = 0;                         // moduli used: the first `count` of int8_moduli()
  int words = 0;                         // 64-bit words of M, their product
  uint32_t m[kMaxModuli] = {};
  uint32_t inv[kMaxModuli] = {};         // (m_0 ... m_{t-1})^-1 mod m_t
  uint32_t magic[kMaxModuli] = {};       // ceil(2^32 / m_t), for mod_small
  uint64_t half[kCrtWords] = {};         // floor(M / 2): residues above it stand for negative values
  uint64_t product[kCrtWords] = {};      // M
};

// Whether the entry with FP64 bit pattern `bits` lies in slice `slice` (of width w bits; w = 0:
// one slice) of a line whose lowest set bit is `low`: nonzero, finite, its lowest set bit `off`
// bits above `low` with off / w == slice. Then |entry| = sig * 2^shift over the slice's base.
OZREF_HD_INLINE bool slice_entry(uint64_t bits, int low, int w, int slice, uint64_t& sig, int& shift) {
  const int field = int((bits >> 52) & 0x7FF);
  sig = bits & ((uint64_t{1} << 52) - 1);
  if (field == 0x7FF || (field == 0 && sig == 0)) return false;
  if (field) sig |= uint64_t{1} << 52;
  int exp = (field ? field : 1) - 1075;
#ifdef __CUDA_ARCH__
  const int tz = __ffsll(static_cast<long long>(sig)) - 1;
#else
  const int tz = __builtin_ctzll(sig);
#endif
  sig >>= tz, exp += tz;  // the lowest set bit, as the line's `low` counts it
  const int off = exp - low;
  shift = w ? off % w : off;
  return w ? off / w == slice : slice == 0;
}

// v mod m for v < 2^24 and 2 <= m <= 256, magic = ceil(2^32 / m), without a division: with
// magic m = 2^32 + e (0 <= e < m), v magic / 2^32 = v / m + v e / (m 2^32) and v e < 2^32, so the
// high word is floor(v / m) (Granlund and Montgomery, "Division by invariant integers using
// multiplication", 1994).
OZREF_HD_INLINE uint32_t mod_small(uint32_t v, uint32_t m, uint32_t magic) {
#ifdef __CUDA_ARCH__
  const uint32_t q = __umulhi(v, magic);
#else
  const uint32_t q = uint32_t((uint64_t{v} * magic) >> 32);
#endif
  return v - q * m;
}

// (-1)^negative sig 2^shift (sig < 2^53) as a balanced residue modulo m in [-128, 127]; pow2 holds
// 2^s mod m. sig in 24-bit pieces, so that mod_small reduces every step (no division on the GPU).
OZREF_HD_INLINE int8_t entry_residue(bool negative, uint64_t sig, int shift, uint32_t m, uint32_t magic, const uint8_t* pow2) {
  const uint32_t p24 = mod_small(2 * mod_small(1u << 23, m, magic), m, magic), p48 = mod_small(p24 * p24, m, magic);
  const uint32_t lo = uint32_t(sig) & 0xFFFFFFu, mid = uint32_t(sig >> 24) & 0xFFFFFFu, hi = uint32_t(sig >> 48);  // hi < 2^5
  const uint32_t sum = mod_small(lo, m, magic) + mod_small(mid, m, magic) * p24 + hi * p48;  // below 2^17
  const uint32_t r = mod_small(mod_small(sum, m, magic) * pow2[shift], m, magic);
  const uint32_t signed_r = negative && r ? m - r : r;
  return int8_t(signed_r >= (m + 1) / 2 ? int(signed_r) - int(m) : int(signed_r));
}

// That entry's balanced residue modulo m in [-128, 127] (0 outside the slice); pow2 holds 2^s mod m
// for s = 0, 1, ...; magic = ceil(2^32 / m).
OZREF_HD_INLINE int8_t slice_residue(uint64_t bits, int low, int w, int slice, uint32_t m, uint32_t magic, const uint8_t* pow2) {
  uint64_t sig = 0;
  int shift = 0;
  return slice_entry(bits, low, w, slice, sig, shift) ? entry_residue(bits >> 63, sig, shift, m, magic, pow2) : 0;
}

// An int32 sum of products of balanced residues reduced into [0, m).
OZREF_HD_INLINE uint8_t reduce_sum(int32_t sum, uint32_t m) {
  const int32_t r = sum % int32_t(m);
  return uint8_t(r < 0 ? r + int32_t(m) : r);
}

// The integer X in (-M/2, M/2] with X = u_t mod m_t for every t (u_t at u[t * stride]), as sign and
// magnitude in t.words words: Garner's mixed-radix digits, then Horner's rule. Every intermediate
// below 2^17, so mod_small reduces it.
OZREF_HD_INLINE void garner(const CrtTables& t, const uint8_t* u, uint64_t stride, uint64_t* mag, bool& negative) {
  uint32_t d[kMaxModuli];
  for (int i = 0; i < t.count; ++i) {
    const uint32_t mi = t.m[i], magic = t.magic[i];
    uint32_t x = 0;  // the digits so far, modulo m_i: x m_s + d_s < 2^16
    for (int s = i - 1; s >= 0; --s) x = mod_small(x * t.m[s] + d[s], mi, magic);
    const uint32_t ui = u[uint64_t(i) * stride];
    d[i] = mod_small((ui + mi - x) * t.inv[i], mi, magic);  // below 2^17
  }
  for (int w = 0; w < t.words; ++w) mag[w] = 0;
  for (int i = t.count - 1; i >= 0; --i) {  // mag = mag * m_i + d_i
    uint64_t carry = d[i];
    for (int w = 0; w < t.words; ++w) {
      const uint64_t lo = (mag[w] & 0xFFFFFFFFu) * t.m[i] + (carry & 0xFFFFFFFFu);
      const uint64_t hi = (mag[w] >> 32) * t.m[i] + (lo >> 32) + (carry >> 32);
      mag[w] = (hi << 32) | (lo & 0xFFFFFFFFu);
      carry = hi >> 32;
    }
  }
  bool above = false;  // mag > floor(M / 2)
  for (int w = t.words - 1; w >= 0; --w)
    if (mag[w] != t.half[w]) {
      above = mag[w] > t.half[w];
      break;
    }
  negative = above;
  if (!above) return;
  uint64_t borrow = 0;  // mag = M - mag
  for (int w = 0; w < t.words; ++w) {
    const uint64_t x = t.product[w], y = mag[w];
    const uint64_t r = x - y - borrow;
    borrow = (x < y) || (x - y < borrow);
    mag[w] = r;
  }
}

// acc (two's complement, `words` words) += (-1)^negative * mag (mw words) * 2^offset, the bits
// beyond acc dropped (the caller sizes acc so that the exact sum fits).
OZREF_HD_INLINE void add_shifted(uint64_t* acc, int words, bool negative, const uint64_t* mag, int mw, unsigned offset) {
  const int w0 = int(offset / 64);
  const unsigned b = offset % 64;
  uint64_t carry = negative ? 1 : 0;  // -x = ~x + 1
  uint64_t prev = 0;
  for (int w = w0; w < words; ++w) {
    const int i = w - w0;
    const uint64_t cur = i < mw ? mag[i] : 0;
    uint64_t part = b ? (cur << b) | (prev >> (64 - b)) : cur;
    prev = cur;
    if (negative) part = ~part;
    const uint64_t s = acc[w] + part;
    const uint64_t s2 = s + carry;
    carry = uint64_t(s < part) + uint64_t(s2 < s);
    acc[w] = s2;
    if (i > mw && !carry && !negative) break;  // nothing left to add
  }
}

// sig * 2^e plus, when `sticky`, a positive amount below 2^e (sig's bit 63 set) rounded to the
// nearest binary floating-point number of `digits` digits, least exponent emin and greatest emax
// (FP64: 53, -1022, 1023), ties to even, the sign kept for a value that rounds to zero: its bit
// pattern.
template <int digits, int emin, int emax>
OZREF_HD_INLINE uint64_t round_window(bool negative, uint64_t sig, bool sticky, int e) {
  constexpr int fraction = digits - 1, qmin = emin - fraction;  // qmin: the least significant bit
  const uint64_t sign = uint64_t(negative) << (fraction + (emax == 1023 ? 11 : 8));  // FP64 or FP32
  const int lead = e + 63;
  if (lead > emax) return sign | (uint64_t(2 * emax + 1) << fraction);  // +-Inf
  const int q = lead - fraction > qmin ? lead - fraction : qmin;  // the result's last bit
  const int sh = q - e;                                           // at least 64 - digits
  uint64_t mant = 0;
  if (sh == 64) {
    mant = ((sig << 1) | uint64_t(sticky)) != 0;  // above half of 2^q (bit 63 is the half)
  } else if (sh < 64) {
    mant = sig >> sh;
    const bool half = (sig >> (sh - 1)) & 1;
    const bool rest = (sig & ((uint64_t{1} << (sh - 1)) - 1)) || sticky;
    mant += half && (rest || (mant & 1));
  }
  return sign | ((uint64_t(q - qmin) << fraction) + mant);  // a carry to 2^digits steps the exponent (to Inf)
}
OZREF_HD_INLINE uint64_t round_to_fp64(bool negative, uint64_t sig, bool sticky, int e) {
  return round_window<53, -1022, 1023>(negative, sig, sticky, e);
}
OZREF_HD_INLINE uint32_t round_to_fp32(bool negative, uint64_t sig, bool sticky, int e) {
  return uint32_t(round_window<24, -126, 127>(negative, sig, sticky, e));
}

// acc = -acc (two's complement); returns whether acc was negative before.
OZREF_HD_INLINE bool negate_if_negative(uint64_t* acc, int words) {
  if (!words || !(acc[words - 1] >> 63)) return false;
  uint64_t carry = 1;
  for (int w = 0; w < words; ++w) {
    acc[w] = ~acc[w] + carry;
    carry = carry && acc[w] == 0;
  }
  return true;
}

// The top 64 bits of a nonzero magnitude (bit 63 set) as sig * 2^e (e counted from bit 0 of mag
// plus base), `sticky` when bits below them are set. False for zero.
OZREF_HD_INLINE bool top_bits(const uint64_t* mag, int words, int base, uint64_t& sig, bool& sticky, int& e) {
  int top = words - 1;
  while (top >= 0 && mag[top] == 0) --top;
  if (top < 0) return false;
#ifdef __CUDA_ARCH__
  const int lz = __clzll(static_cast<long long>(mag[top]));
#else
  const int lz = __builtin_clzll(mag[top]);
#endif
  const uint64_t below = top > 0 ? mag[top - 1] : 0;
  sig = lz ? (mag[top] << lz) | (below >> (64 - lz)) : mag[top];
  sticky = lz ? (below << lz) != 0 : below != 0;
  for (int w = top - 2; w >= 0 && !sticky; --w) sticky = mag[w] != 0;
  e = base + 64 * top - lz;  // sig's bit 0 is mag's bit 64 top - lz
  return true;
}

// One element of the exact product as exact_gemm gives it (exact/exact_gemm.hpp): nearest in FP64
// and in FP32, and the residual E - nearest rounded to odd at 64 bits, as (-1)^residual_negative
// residual_sig 2^residual_exp (residual_sig 0: residual 0).
struct RoundedElement {
  uint64_t nearest = 0, residual_sig = 0;
  uint32_t nearest_fp32 = 0;
  int32_t residual_exp = 0;
  bool residual_negative = false, residual_exact = true;
};

// The two's-complement accumulator acc (value E = acc * 2^base, `words` words with a spare top bit)
// rounded; an exact zero gives +0. Destroys acc.
OZREF_HD_INLINE RoundedElement round_element(uint64_t* acc, int words, int base) {
  RoundedElement r;
  const bool negative = negate_if_negative(acc, words);
  uint64_t sig = 0;
  bool sticky = false;
  int e = 0;
  if (!top_bits(acc, words, base, sig, sticky, e)) return r;
  r.nearest = round_to_fp64(negative, sig, sticky, e);
  r.nearest_fp32 = round_to_fp32(negative, sig, sticky, e);
  const int field = int((r.nearest >> 52) & 0x7FF);
  if (field == 0x7FF) {  // beyond the FP64 range: no residual, and not exact
    r.residual_exact = false;
    return r;
  }
  // |E| - |nearest|: nearest's significand (trailing zeros stripped) at its lowest set bit, which
  // lies at or above base (E's lowest bit, or a rounding point above it).
  uint64_t nsig = r.nearest & ((uint64_t{1} << 52) - 1);
  if (field) nsig |= uint64_t{1} << 52;
  int nexp = (field ? field : 1) - 1075;
  if (nsig) {
#ifdef __CUDA_ARCH__
    const int tz = __ffsll(static_cast<long long>(nsig)) - 1;
#else
    const int tz = __builtin_ctzll(nsig);
#endif
    nsig >>= tz, nexp += tz;
    add_shifted(acc, words, true, &nsig, 1, unsigned(nexp - base));
  }
  const bool below = negate_if_negative(acc, words);  // |E| < |nearest|
  if (!top_bits(acc, words, base, sig, sticky, e)) return r;
  r.residual_negative = below != negative;
  r.residual_sig = sig | uint64_t(sticky);  // rounded to odd
  r.residual_exp = e;
  r.residual_exact = !sticky;
  return r;
}

}  // namespace ozref::exact_element
