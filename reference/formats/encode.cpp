#include "formats/encode.hpp"

#include <stdexcept>

#include "formats/decode.hpp"

namespace ozref {
namespace {

using u128 = unsigned __int128;

int bit_length(u128 x) {
  const uint64_t hi = static_cast<uint64_t>(x >> 64);
  if (hi) return 128 - __builtin_clzll(hi);
  const uint64_t lo = static_cast<uint64_t>(x);
  return lo ? 64 - __builtin_clzll(lo) : 0;
}

EncodeResult nan_result(const FormatSpec& spec, bool negative, bool invalid) {
  EncodeResult r;
  r.invalid = invalid;
  if (spec.nan_rule == NanRule::None) {
    r.bits = spec.sign_mask();  // 0b1000 for E2M1 (see the header)
    r.invalid = true;
    return r;
  }
  r.bits = spec.canonical_nan() | (negative && spec.is_signed ? spec.sign_mask() : 0);
  return r;
}

EncodeResult overflow_result(const FormatSpec& spec, bool negative, Rounding rounding,
                             Overflow overflow, bool input_was_infinite) {
  EncodeResult r;
  r.overflow = !input_was_infinite;
  r.inexact = !input_was_infinite;
  const uint64_t sign = negative && spec.is_signed ? spec.sign_mask() : 0;
  const bool saturate =
      overflow == Overflow::SatFinite || (rounding == Rounding::TowardZero && !input_was_infinite);
  if (!saturate && spec.has_infinity) {
    r.bits = sign | (uint64_t{spec.exponent_field_max()} << spec.fraction_bits);
  } else if (!saturate && spec.nan_rule != NanRule::None) {
    r.bits = sign | spec.canonical_nan();
  } else {
    r.bits = sign | spec.max_finite_encoding();
  }
  return r;
}

}  // namespace

EncodeResult encode(const FormatSpec& spec, const ExactValue& value, Rounding rounding,
                    Overflow overflow, bool sticky) {
  const bool negative = value.negative;
  if (value.cls == FloatClass::NaN) return nan_result(spec, negative, false);
  const bool nonzero = value.cls == FloatClass::Infinity ||
                       (value.cls != FloatClass::Zero && (value.significand != 0 || sticky));
  if (!spec.is_signed && negative && nonzero) return nan_result(spec, false, true);
  if (value.cls == FloatClass::Infinity)
    return overflow_result(spec, negative, rounding, overflow, true);
  const uint64_t sign = negative && spec.is_signed ? spec.sign_mask() : 0;
  if (!nonzero) {
    if (!spec.has_subnormals) return nan_result(spec, false, true);  // UE8M0 has no zero
    EncodeResult r;
    r.bits = sign;
    return r;
  }

  // The value as m * 2^e with the sticky amount placed far below every bit that can matter.
  u128 m = value.significand;
  int e = value.exponent;
  if (sticky) {
    m = (m << 64) | 1;
    e -= 64;
  }
  const int p = spec.fraction_bits;
  const int top = bit_length(m) - 1 + e;  // value lies in [2^top, 2^(top+1))
  const int emin = spec.min_normal_exponent();
  if (!spec.has_subnormals && top < emin) {
    EncodeResult r;
    r.bits = sign;  // encoding 0: the smallest scale
    r.underflow = true;
    r.inexact = true;
    return r;
  }
  int quantum = (top > emin ? top : emin) - p;  // exponent of the last kept bit
  if (sticky && quantum <= value.exponent)
    throw std::logic_error("encode: sticky bits would reach the rounding position");

  const int shift = quantum - e;
  u128 kept;
  bool inexact = false;
  bool round_up = false;
  if (shift <= 0) {
    kept = m << -shift;
  } else if (shift >= 128) {
    kept = 0;
    inexact = true;  // m < 2^128 <= half ulp when shift > 128; shift == 128 needs the compare
    if (shift == 128 && rounding == Rounding::NearestEven) {
      const u128 half = u128{1} << 127;
      round_up = m > half;  // a tie rounds to the even kept value 0
    }
  } else {
    kept = m >> shift;
    const u128 rem = m - (kept << shift);
    const u128 half = u128{1} << (shift - 1);
    inexact = rem != 0;
    // Ties go to the even encoding; with no fraction bits (UE8M0) that is the even exponent.
    const bool odd = spec.fraction_bits == 0 ? ((quantum + spec.bias) & 1) : (kept & 1);
    if (rounding == Rounding::NearestEven) round_up = rem > half || (rem == half && odd);
  }
  if (round_up) {
    ++kept;
    if (kept == (u128{1} << (p + 1))) {
      kept >>= 1;
      ++quantum;
    }
  }

  EncodeResult r;
  r.inexact = inexact;
  if (kept == 0) {  // rounded to zero (below half the smallest subnormal)
    r.bits = sign;
    r.underflow = true;
    return r;
  }
  uint64_t exp_field;
  uint64_t fraction;
  if (kept >> p) {  // normal
    exp_field = static_cast<uint64_t>(quantum + p + spec.bias);
    fraction = static_cast<uint64_t>(kept) & spec.fraction_mask();
    // quantum + p is the value's exponent; compare against the largest finite before composing.
    const int64_t biased = int64_t{quantum} + p + spec.bias;
    const uint64_t max_mag = spec.max_finite_encoding();
    const int64_t max_exp_field = static_cast<int64_t>(max_mag >> spec.fraction_bits);
    if (biased > max_exp_field ||
        (biased == max_exp_field && fraction > (max_mag & spec.fraction_mask())))
      return overflow_result(spec, negative, rounding, overflow, false);
  } else {  // subnormal
    exp_field = 0;
    fraction = static_cast<uint64_t>(kept);
    r.underflow = inexact;
  }
  r.bits = sign | (exp_field << spec.fraction_bits) | fraction;
  return r;
}

EncodeResult convert(const FormatSpec& from, uint64_t bits, const FormatSpec& to, Rounding rounding,
                     Overflow overflow) {
  return encode(to, decode(from, bits), rounding, overflow);
}

}  // namespace ozref
