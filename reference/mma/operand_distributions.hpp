// Operands of one instruction as bit patterns, for the MMA-level lockstep: the byte encodings of
// each element of A's rows or B's columns along K (kind::f8f6f4's E2M1 in bits 5:2 of its byte,
// the padding bits zero), drawn from
//   encodings   every pattern of the element format equally likely (NaN, infinities, -0 and
//               subnormals included)
//   finite      every finite pattern equally likely
//   extreme     every element the operand type's most negative value (s8 -128, u8 255, FP -max
//               finite): the sums that leave the accumulator's range first (INT8: K >= 131072)
//   any value distribution of common/distributions.hpp (randn, uniform, phi:X, integers:R), each
//   value rounded into the operand type (FP: nearest-even, saturating; INT8: nearest, clamped)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/distributions.hpp"
#include "common/rng.hpp"
#include "mma/instruction.hpp"

namespace ozref::mma {

struct OperandDistribution {
  enum Kind { Encodings, Finite, Extreme, Values } kind = Values;
  Distribution values;  // Values: the distribution rounded into the operand type
};

// InputError naming a bad spelling.
OperandDistribution parse_operand_distribution(const std::string& text);
std::string to_string(const OperandDistribution& d);

// Whether the instruction takes one byte per element (INT8, FP8, E2M1 in 8-bit containers): the
// operands the MMA level draws.
bool one_byte_per_element(const InstructionSpec& spec);
// rows x k operand bytes of side A (b_side false) or B of `spec`; InputError for an instruction
// whose operands are not one byte per element.
std::vector<uint8_t> random_operand(const InstructionSpec& spec, bool b_side, size_t rows, size_t k, const OperandDistribution& d, Rng& rng);

}  // namespace ozref::mma
