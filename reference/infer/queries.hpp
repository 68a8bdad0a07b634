// The queries `infer` chooses from and validates with: random operands of an instruction's
// interface, structured so that the family's dimensions show (docs/infer.md, "Queries").
#pragma once
#include "common/rng.hpp"
#include "io/mma_trace.hpp"
#include "mma/instruction.hpp"

namespace ozref::infer {

// One query for `interface`'s op: a few nonzero products or all of them, operand exponents close
// together or spread over the format, C near the products' scale or far from it, an exact
// cancellation now and then, and now and then a special value (Inf, NaN) where the formats have one.
MmaRecord random_query(const mma::InstructionSpec& interface, Rng& rng);

// Element k of an operand set to `bits` (the inverse of mma::element_bits for the packing).
void set_element(const mma::InstructionSpec& interface, std::vector<uint8_t>& operand, int k, uint32_t bits);

}  // namespace ozref::infer
