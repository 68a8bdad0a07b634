#include "mma/operand_distributions.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "common/error.hpp"
#include "formats/decode.hpp"
#include "formats/encode.hpp"

namespace ozref::mma {
namespace {

// An element's encoding as its operand byte: kind::f8f6f4's E2M1 sits in bits 5:2 of its
// 8-bit container, every other format fills the byte.
uint8_t operand_byte(const InstructionSpec& s, uint32_t code) {
  return static_cast<uint8_t>(s.packing == Packing::PaddedFp4 ? (code & 0xF) << 2 : code);
}

// A uniformly random encoding of the element format.
uint32_t random_code(const InstructionSpec& s, Rng& rng) { return static_cast<uint32_t>(rng.next() >> (s.packing == Packing::PaddedFp4 ? 60 : 56)); }

// One element's encoding: the value rounded into the operand type.
uint8_t encode_value(const InstructionSpec& s, bool b_side, double x) {
  if (s.kind == Kind::Integer) {
    const bool is_signed = b_side ? s.b_signed : s.a_signed;
    const double r = std::clamp(std::nearbyint(x), is_signed ? -128.0 : 0.0, is_signed ? 127.0 : 255.0);
    return static_cast<uint8_t>(static_cast<int>(r));
  }
  const ExactValue v = decode(format_spec(FormatId::FP64), std::bit_cast<uint64_t>(x));
  return operand_byte(s, static_cast<uint32_t>(encode(format_spec(b_side ? s.b_format : s.a_format), v, Rounding::NearestEven, Overflow::SatFinite).bits));
}

uint8_t extreme(const InstructionSpec& s, bool b_side) {
  if (s.kind == Kind::Integer) return (b_side ? s.b_signed : s.a_signed) ? 0x80 : 0xFF;
  const FormatSpec& f = format_spec(b_side ? s.b_format : s.a_format);
  return operand_byte(s, static_cast<uint32_t>(f.max_finite_encoding() | f.sign_mask()));
}

bool finite(const InstructionSpec& s, bool b_side, uint32_t code) {
  return s.kind == Kind::Integer || decode(format_spec(b_side ? s.b_format : s.a_format), code).is_finite();
}

}  // namespace

OperandDistribution parse_operand_distribution(const std::string& text) {
  if (text == "encodings") return {OperandDistribution::Encodings, {}};
  if (text == "finite") return {OperandDistribution::Finite, {}};
  if (text == "extreme") return {OperandDistribution::Extreme, {}};
  try {
    return {OperandDistribution::Values, parse_distribution(text)};
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + "; at the MMA level also encodings, finite, extreme");
  }
}

std::string to_string(const OperandDistribution& d) {
  switch (d.kind) {
    case OperandDistribution::Encodings: return "encodings";
    case OperandDistribution::Finite: return "finite";
    case OperandDistribution::Extreme: return "extreme";
    case OperandDistribution::Values: return to_string(d.values);
  }
  return "";
}

std::vector<uint8_t> random_operand(const InstructionSpec& s, bool b_side, size_t rows, size_t k, const OperandDistribution& d, Rng& rng) {
  if (!one_byte_per_element(s))
    throw InputError("the MMA-level lockstep draws one byte per element; '" + s.op + "' packs its operands otherwise");
  std::vector<uint8_t> bytes(rows * k);
  if (d.kind == OperandDistribution::Values) {
    const Matrix<double> x = random_matrix(rows, k, d.values, rng);
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = encode_value(s, b_side, x.data[i]);
    return bytes;
  }
  for (auto& byte : bytes) {
    if (d.kind == OperandDistribution::Extreme) {
      byte = extreme(s, b_side);
      continue;
    }
    uint32_t code;
    do code = random_code(s, rng);
    while (d.kind == OperandDistribution::Finite && !finite(s, b_side, code));
    byte = operand_byte(s, code);
  }
  return bytes;
}

bool one_byte_per_element(const InstructionSpec& s) {
  return s.kind != Kind::BlockScaled && (s.packing == Packing::Byte || s.packing == Packing::PaddedFp4);
}

}  // namespace ozref::mma
