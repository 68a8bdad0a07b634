// The one fused dot-add core every FP MMA model runs (docs/architecture.md, principle 2).
#pragma once
#include <cstdint>
#include <span>

#include "formats/wide_accumulator.hpp"
#include "mma/instruction.hpp"

namespace ozref::mma {

// An exact addend: (-1)^negative * magnitude * 2^lsb, aligned as if its leading exponent were
// `align` (for a product: ea + eb of its operands, not renormalised).
struct Term {
  bool negative = false;
  u128 magnitude = 0;
  int lsb = 0;
  int align = 0;
};

// sum(terms) + c through one block: returns the FP32 bits. Terms and c must be finite (special
// values are resolved before, in execute.cpp).
uint32_t fused_dot_add(std::span<const Term> terms, uint32_t c_bits, const FusedBlock& block);

// The IEEE FP32 sum x + y, rounded to nearest-even (NaN as 0x7FFFFFFF, as the GPU's FADD gives).
uint32_t fp32_add_nearest(uint32_t x, uint32_t y);

}  // namespace ozref::mma
