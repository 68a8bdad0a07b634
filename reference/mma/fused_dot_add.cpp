#include "mma/fused_dot_add.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "formats/decode.hpp"
#include "formats/encode.hpp"

namespace ozref::mma {
namespace {

const FormatSpec& fp32() { return format_spec(FormatId::FP32); }

Term term_of_fp32(uint32_t bits) {
  const ExactValue v = decode(fp32(), bits);
  return {v.negative, v.significand, v.exponent, v.exponent + 23};
}

// Rounds (-1)^negative * magnitude * 2^lsb (magnitude as little-endian words) into FP32.
uint32_t round_to_fp32(std::span<const uint64_t> twos_complement, int lsb, const FusedBlock& block) {
  bool sticky = false;
  const ExactValue v = leading_bits(twos_complement, lsb, sticky);
  if (v.cls == FloatClass::Zero) return 0;
  const Rounding r = block.rounding == OutputRounding::TowardZero ? Rounding::TowardZero : Rounding::NearestEven;
  const EncodeResult e = encode(fp32(), v, r, Overflow::NoSat, sticky);
  if (e.overflow) return (v.negative ? 0x80000000u : 0) | 0x7F800000u;  // +-Inf even under RZ
  uint32_t bits = static_cast<uint32_t>(e.bits);
  if (block.output_fraction_bits < 23) bits &= ~((1u << (23 - block.output_fraction_bits)) - 1);
  if (block.zero_result_positive && !(bits & 0x7FFFFFFFu)) return 0;
  return bits;
}

uint32_t exact_dot_add(std::span<const Term> terms, const Term& c, const FusedBlock& block) {
  int low = c.magnitude ? c.lsb : INT32_MAX, high = c.magnitude ? c.lsb + 128 : INT32_MIN;
  for (const Term& t : terms) {
    if (!t.magnitude) continue;
    low = std::min(low, t.lsb);
    high = std::max(high, t.lsb + 128);
  }
  if (low == INT32_MAX) return 0;
  const size_t words = static_cast<size_t>((high - low + 8 + 63) / 64) + 1;
  thread_local std::vector<uint64_t> acc;
  acc.assign(words, 0);
  for (const Term& t : terms)
    if (t.magnitude) accumulate(acc, t.negative, t.magnitude, static_cast<unsigned>(t.lsb - low));
  if (c.magnitude) accumulate(acc, c.negative, c.magnitude, static_cast<unsigned>(c.lsb - low));
  return round_to_fp32(acc, low, block);
}

// Each term truncated toward zero to a multiple of 2^unit, summed exactly, in units of 2^unit.
__int128 truncated_sum(std::span<const Term> terms, int unit) {
  __int128 sum = 0;
  for (const Term& t : terms) {
    if (!t.magnitude) continue;
    const int shift = t.lsb - unit;
    u128 kept;
    if (shift >= 0) kept = t.magnitude << shift;  // shift <= fraction_bits: no overflow
    else kept = -shift >= 128 ? 0 : t.magnitude >> -shift;
    sum += t.negative ? -static_cast<__int128>(kept) : static_cast<__int128>(kept);
  }
  return sum;
}

// x * 2^shift rounded toward minus infinity (an arithmetic shift).
__int128 floor_shift(__int128 x, int shift) {
  if (shift >= 0) return x << shift;  // callers keep |x| * 2^shift far below 2^126
  if (-shift >= 127) return x < 0 ? -1 : 0;
  return x >> -shift;
}

uint32_t rounded(__int128 sum, int unit, const FusedBlock& block) {
  const uint64_t words[2] = {static_cast<uint64_t>(sum), static_cast<uint64_t>(static_cast<u128>(sum) >> 64)};
  return round_to_fp32(words, unit, block);
}

// The separate C stage (FusedBlock::c_stage_sum_bits): the products fused on their own maximum
// exponent, then that sum and C floored on the larger of the two and added.
uint32_t c_stage_dot_add(std::span<const Term> terms, const Term& c, const FusedBlock& block) {
  int products_max = INT32_MIN;
  for (const Term& t : terms)
    if (t.magnitude) products_max = std::max(products_max, t.align);
  if (products_max == INT32_MIN && !c.magnitude) return 0;
  const int top = std::max(products_max, c.magnitude ? c.align : INT32_MIN);
  const int unit = top - block.c_stage_sum_bits, c_unit = top - block.c_stage_c_bits;
  __int128 sum = 0;
  if (products_max != INT32_MIN) {
    const int products_unit = products_max - block.fraction_bits;
    sum = floor_shift(truncated_sum(terms, products_unit), products_unit - unit);
  }
  if (c.magnitude) {
    const __int128 c_value = c.negative ? -static_cast<__int128>(c.magnitude) : static_cast<__int128>(c.magnitude);
    sum += floor_shift(c_value, c.lsb - c_unit) << (c_unit - unit);
  }
  return rounded(sum, unit, block);
}

}  // namespace

uint32_t fused_dot_add(std::span<const Term> terms, uint32_t c_bits, const FusedBlock& block) {
  const Term c = term_of_fp32(c_bits);
  if (block.fraction_bits == FusedBlock::kExact) return exact_dot_add(terms, c, block);
  if (block.c_stage_sum_bits) return c_stage_dot_add(terms, c, block);
  // Alignment exponent: the largest over nonzero products and a nonzero C, at least the floor (a
  // zero C counts as 2^floor: with MMA-Sim's floor -126 that is its "zero C counts as 2^-126").
  int e_max = std::max(block.exponent_floor, c.magnitude ? c.align : block.exponent_floor);
  for (const Term& t : terms)
    if (t.magnitude) e_max = std::max(e_max, t.align);
  const int unit = e_max - block.fraction_bits;  // exponent of the last kept bit
  const Term with_c[1] = {c};
  return rounded(truncated_sum(terms, unit) + truncated_sum(with_c, unit), unit, block);
}

uint32_t fp32_add_nearest(uint32_t x, uint32_t y) {
  const FloatClass cx = classify(fp32(), x), cy = classify(fp32(), y);
  if (cx == FloatClass::NaN || cy == FloatClass::NaN) return kCanonicalNaN;
  if (cx == FloatClass::Infinity || cy == FloatClass::Infinity) {
    if (cx == FloatClass::Infinity && cy == FloatClass::Infinity && ((x ^ y) >> 31)) return kCanonicalNaN;
    return cx == FloatClass::Infinity ? x : y;
  }
  if (cx == FloatClass::Zero && cy == FloatClass::Zero) return x & y;  // -0 only if both are -0
  const Term terms[1] = {term_of_fp32(x)};
  return exact_dot_add(terms, term_of_fp32(y), FusedBlock{});
}

}  // namespace ozref::mma
