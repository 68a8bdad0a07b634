#include "mma/execute.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <vector>

#include "common/error.hpp"
#include "formats/decode.hpp"
#include "formats/encode.hpp"
#include "mma/fused_dot_add.hpp"

namespace ozref::mma {
namespace {

using Operand = DecodedElement;
Operand operand(const InstructionSpec& s, FormatId format, uint32_t bits) { return decode_element(s, format, bits); }

struct Specials {
  bool nan = false, plus = false, minus = false;
  void product(const ExactValue& a, const ExactValue& b) {
    if (a.cls == FloatClass::NaN || b.cls == FloatClass::NaN) { nan = true; return; }
    const bool ai = a.cls == FloatClass::Infinity, bi = b.cls == FloatClass::Infinity;
    if (!ai && !bi) return;
    if (a.cls == FloatClass::Zero || b.cls == FloatClass::Zero) { nan = true; return; }
    (a.negative != b.negative ? minus : plus) = true;
  }
  void value(uint32_t fp32_bits) {
    const ExactValue v = decode(format_spec(FormatId::FP32), fp32_bits);
    if (v.cls == FloatClass::NaN) nan = true;
    else if (v.cls == FloatClass::Infinity) (v.negative ? minus : plus) = true;
  }
  bool any() const { return nan || plus || minus; }
  uint32_t result(uint32_t nan_bits) const {
    if (nan || (plus && minus)) return nan_bits;
    return plus ? 0x7F800000u : 0xFF800000u;
  }
};

Term product_term(const Operand& a, const Operand& b) {
  return {a.v.negative != b.v.negative, u128{a.v.significand} * b.v.significand,
          a.v.exponent + b.v.exponent, a.align + b.align};
}

uint32_t execute_integer(const InstructionSpec& s, const ElementOperands& x) {
  int64_t sum = static_cast<int32_t>(x.c);
  for (int k = 0; k < s.k; ++k) {
    const int64_t a = s.a_signed ? int64_t{static_cast<int8_t>(x.a[k])} : int64_t{x.a[k]};
    const int64_t b = s.b_signed ? int64_t{static_cast<int8_t>(x.b[k])} : int64_t{x.b[k]};
    sum += a * b;
  }
  if (s.saturate) sum = std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX);
  return static_cast<uint32_t>(sum);  // wraps modulo 2^32
}

// A scale as (significand, exponent); NaN scales are reported through `nan`.
struct Scale {
  uint64_t significand = 1;
  int exponent = 0;
  int align = 0;
};
Scale scale_of(FormatId format, uint8_t bits, Specials& sp) {
  const ExactValue v = decode(format_spec(format), bits);
  if (v.cls == FloatClass::NaN) sp.nan = true;
  if (!v.is_finite()) return {};
  if (!v.significand) return {0, 0, -126};  // a zero scale aligns as a zero C does
  return {v.significand, v.exponent, v.exponent + format_spec(format).fraction_bits};
}

uint32_t execute_block_scaled(const InstructionSpec& s, const ElementOperands& x) {
  Specials sp;
  sp.value(x.c);
  std::vector<Term> terms;
  int zero_group_align = INT32_MIN;  // the largest scale exponent of an exact group worth zero
  const int groups = s.exact_group ? s.k / s.exact_group : s.k;
  const int group = s.exact_group ? s.exact_group : 1;
  for (int g = 0; g < groups; ++g) {
    const int k0 = g * group;
    const Scale sa = scale_of(s.scale_format, x.scale_a[k0 / s.scale_block], sp);
    const Scale sb = scale_of(s.scale_format, x.scale_b[k0 / s.scale_block], sp);
    // The group's products summed exactly at a common lsb (the smallest any product can have).
    __int128 group_sum = 0;
    int lsb = INT32_MAX, align = INT32_MIN;
    std::vector<Term> products;
    for (int k = k0; k < k0 + group; ++k) {
      const Operand a = operand(s, s.a_format, element_bits(s, x.a, k));
      const Operand b = operand(s, s.b_format, element_bits(s, x.b, k));
      sp.product(a.v, b.v);
      if (!a.v.is_finite() || !b.v.is_finite() || !a.v.significand || !b.v.significand) continue;
      products.push_back(product_term(a, b));
      lsb = std::min(lsb, products.back().lsb);
      align = std::max(align, products.back().align);
    }
    for (const Term& t : products) {
      const __int128 v = static_cast<__int128>(t.magnitude << (t.lsb - lsb));
      group_sum += t.negative ? -v : v;
    }
    if (group_sum == 0 || !sa.significand || !sb.significand) {
      if (s.exact_group && s.zero_group_aligns) zero_group_align = std::max(zero_group_align, sa.align + sb.align);
      continue;
    }
    const bool negative = group_sum < 0;
    const u128 magnitude = static_cast<u128>(negative ? -group_sum : group_sum) * sa.significand * sb.significand;
    // Single products (mxf8f6f4) keep their own alignment plus the scale exponents; exact groups
    // (mxf4, mxf4nvf4) are aligned on the scale exponents only (MMA-Sim).
    const int group_align = s.exact_group ? sa.align + sb.align : align + sa.align + sb.align;
    terms.push_back({negative, magnitude, lsb + sa.exponent + sb.exponent, group_align});
  }
  if (sp.any()) return sp.result(s.nan_bits);
  FusedBlock block = s.block;  // a zero group's scale exponent raises the alignment exponent
  block.exponent_floor = std::max(block.exponent_floor, zero_group_align);
  return fused_dot_add(terms, x.c, block);
}

uint32_t execute_float(const InstructionSpec& s, const ElementOperands& x) {
  Operand a[64], b[64];  // instruction K is at most 64 (checked in execute_float_decoded)
  for (int k = 0; k < s.k; ++k) {
    a[k] = operand(s, s.a_format, element_bits(s, x.a, k));
    b[k] = operand(s, s.b_format, element_bits(s, x.b, k));
  }
  return execute_float_decoded(s, a, b, x.c);
}

}  // namespace

DecodedElement decode_element(const InstructionSpec& s, FormatId format, uint32_t bits) {
  const FormatSpec* f = &format_spec(format);
  ExactValue v = decode(*f, bits);
  if (s.convert_to_fp16 && v.is_finite()) {  // exact: every e4m3/e5m2 value is an FP16 value
    f = &format_spec(FormatId::FP16);
    v = decode(*f, encode(*f, v, Rounding::NearestEven, Overflow::NoSat).bits);
  }
  return {v, v.exponent + f->fraction_bits};
}

int bit_length(u128 x) {
  const auto high = static_cast<uint64_t>(x >> 64);
  return high ? 64 + static_cast<int>(std::bit_width(high)) : static_cast<int>(std::bit_width(static_cast<uint64_t>(x)));
}

// AMD's chain (FusedBlock::c_stage_sum_bits, MMA-Sim's amd_fused_dot_add): special values are
// settled group by group, with the running FP32 sum as the group's C, and a finite product of
// 2^128 or more counts as an infinity of its sign.
uint32_t execute_c_stage(const InstructionSpec& s, const DecodedElement* a, const DecodedElement* b, uint32_t c) {
  uint32_t acc = c;
  Term terms[64];
  for (const auto& block : s.blocks) {
    Specials sp, huge;
    sp.value(acc);
    size_t count = 0;
    for (int k : block) {
      sp.product(a[k].v, b[k].v);
      if (!a[k].v.is_finite() || !b[k].v.is_finite()) continue;
      terms[count] = product_term(a[k], b[k]);
      const Term& t = terms[count++];
      if (t.magnitude && t.lsb + bit_length(t.magnitude) - 1 >= 128) (t.negative ? huge.minus : huge.plus) = true;
    }
    if (sp.any()) acc = sp.result(s.nan_bits);
    else if (huge.any()) acc = huge.result(s.nan_bits);
    else acc = fused_dot_add(std::span<const Term>(terms, count), acc, s.block);
  }
  return acc;
}

uint32_t execute_float_decoded(const InstructionSpec& s, const DecodedElement* a, const DecodedElement* b, uint32_t c) {
  if (s.k > 64) throw std::logic_error(s.op + ": instruction K above 64 is not supported by the FP core");
  if (s.block.c_stage_sum_bits) return execute_c_stage(s, a, b, c);
  Specials sp;
  sp.value(c);
  for (int k = 0; k < s.k; ++k) sp.product(a[k].v, b[k].v);
  if (sp.any()) return sp.result(s.nan_bits);
  uint32_t acc = s.c_added_after ? 0u : c;
  Term terms[64];
  for (const auto& block : s.blocks) {
    // A block result beyond FP32's range is +-Inf; as the next block's C it stays what it is,
    // since the remaining products are finite (an infinite C, as the H200's HMMA treats it).
    if ((acc & 0x7F800000u) == 0x7F800000u) break;
    size_t count = 0;
    for (int k : block) terms[count++] = product_term(a[k], b[k]);
    acc = fused_dot_add(std::span<const Term>(terms, count), acc, s.block);
  }
  return s.c_added_after ? fp32_add_nearest(acc, c) : acc;
}

uint32_t element_bits(const InstructionSpec& s, std::span<const uint8_t> bytes, int k) {
  switch (s.packing) {
    case Packing::Byte: return bytes[k];
    case Packing::Half: return uint32_t(bytes[2 * k]) << 8 | bytes[2 * k + 1];
    case Packing::PaddedFp4: return (bytes[k] >> 2) & 0xF;  // e2m1 in bits 5:2 (PTX f8f6f4)
    case Packing::PackedFp4: return (bytes[k / 2] >> (4 * (k % 2))) & 0xF;  // lower k, lower nibble
  }
  return 0;
}

size_t operand_bytes(const InstructionSpec& s) {
  switch (s.packing) {
    case Packing::PackedFp4: return static_cast<size_t>(s.k / 2);
    case Packing::Half: return static_cast<size_t>(s.k * 2);
    default: return static_cast<size_t>(s.k);
  }
}

size_t scale_bytes(const InstructionSpec& s) {
  return s.kind == Kind::BlockScaled ? static_cast<size_t>(s.k / s.scale_block) : 0;
}

uint32_t execute(const InstructionSpec& s, const ElementOperands& x) {
  if (x.a.size() != operand_bytes(s) || x.b.size() != operand_bytes(s))
    throw InputError(s.op + ": operands must be " + std::to_string(operand_bytes(s)) + " bytes each, got " +
                     std::to_string(x.a.size()) + " and " + std::to_string(x.b.size()));
  if (x.scale_a.size() != scale_bytes(s) || x.scale_b.size() != scale_bytes(s))
    throw InputError(s.op + ": expected " + std::to_string(scale_bytes(s)) + " scale bytes per operand");
  switch (s.kind) {
    case Kind::Integer: return execute_integer(s, x);
    case Kind::Float: return execute_float(s, x);
    case Kind::BlockScaled: return execute_block_scaled(s, x);
  }
  return 0;
}

}  // namespace ozref::mma
