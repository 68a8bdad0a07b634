// The exact regime of an FP MMA GEMM: when every A and B element is an integer multiple of 2^-s
// (s = 1 for E2M1, 0 otherwise) with |value * 2^s| <= 127, every C is an integer multiple of
// 2^-2s, and for every output |C| + sum_k |a_k| |b_k| < 2^(min(F, output fraction bits) + 1 - 2s),
// then every product, every alignment and every block sum of the instruction chain is exact, and
// D is the exact sum: computed here through the integer GEMM. Derivation in docs/models.md.
#pragma once
#include <cstdint>
#include <vector>

#include "mma/gemm.hpp"

namespace ozref::mma {

// Writes D (m x n) and returns true when the operands are in the exact regime of `spec`; returns
// false, leaving D as it was, when they are not.
bool exact_regime_gemm(const InstructionSpec& spec, const GemmOperands& x, int threads, std::span<uint32_t> d);

}  // namespace ozref::mma
