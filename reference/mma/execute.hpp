// One instruction on one output element's operands: A's row and B's column along K, as the
// instruction's operand bytes hold them (docs/architecture.md, "MMA trace records"), C and D as bit patterns.
#pragma once
#include <cstdint>
#include <span>

#include "formats/value.hpp"
#include "mma/instruction.hpp"

namespace ozref::mma {

struct ElementOperands {
  std::span<const uint8_t> a, b;                // K bytes (K/2 for packed FP4)
  uint32_t c = 0;
  std::span<const uint8_t> scale_a, scale_b;    // one byte per scale block (block-scaled kinds)
};

// Bytes an operand takes for K elements, and scale bytes per operand.
size_t operand_bytes(const InstructionSpec& spec);
size_t scale_bytes(const InstructionSpec& spec);

// Element k (0 <= k < spec.k) of one instruction's operand bytes, as the packing defines it.
uint32_t element_bits(const InstructionSpec& spec, std::span<const uint8_t> operand, int k);

// D for one output element. Throws InputError when operand sizes do not match the instruction.
uint32_t execute(const InstructionSpec& spec, const ElementOperands& x);

// An FP operand element decoded once (value and alignment exponent, after any exact conversion
// the instruction applies first), so that a GEMM decodes each element once rather than once per
// output it feeds.
struct DecodedElement {
  ExactValue v;
  int align = 0;
};
DecodedElement decode_element(const InstructionSpec& spec, FormatId format, uint32_t bits);
// D of a Kind::Float instruction on decoded operands (spec.k elements each): what execute() does.
uint32_t execute_float_decoded(const InstructionSpec& spec, const DecodedElement* a, const DecodedElement* b, uint32_t c);

}  // namespace ozref::mma
