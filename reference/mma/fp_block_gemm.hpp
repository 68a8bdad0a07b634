// The vectorised general path of FP8/FP4 MMA GEMMs: the fused-block semantics of the instruction
// chain (fused_dot_add.cpp, execute.cpp) on 16 output columns at once, for any data. Per fused
// block and output: the alignment exponent e_max as an integer maximum over the products'
// alignment exponents (plus block scales) and C's; each product truncated toward zero to F bits
// below e_max as trunc(a * b * 2^(F - e_max)), which FP32 computes exactly (at most 8 significant
// bits times a power of two); the truncated products summed in int32 (below 2^31 per 2^(29 - F)
// terms), C truncated the same way in FP64; one normalisation and rounding from FP64. Exact groups
// (mxf4, mxf4nvf4) are summed in FP32 and truncated in FP64. A step with a NaN or Inf operand,
// scale or C, or a block result at or beyond 2^127, is recomputed for that output by execute().
// Derivation and limits: docs/models.md, "The vectorised general path".
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "mma/gemm.hpp"

namespace ozref::mma {

// Whether the path models `spec`: FP8/FP4 elements in bytes with truncating blocks of F <= 25 and
// block scales (if any) one UE8M0 per instruction step; or E2M1 exact groups (packed FP4, UE8M0 or
// UE4M3 scales, F <= 38). Not FP16/BF16, nor the exact accumulator of `ideal`.
bool fp_block_gemm_applies(const InstructionSpec& spec);
// Every modelled instruction (of every architecture and variant) that it takes.
std::vector<const InstructionSpec*> fp_block_gemm_specs();

// Writes D (m x n) for an instruction fp_block_gemm_applies() accepts; false (D untouched) for
// any other.
bool fp_block_gemm(const InstructionSpec& spec, const GemmOperands& x, int threads, std::span<uint32_t> d);

bool cpu_has_avx512_fp_block();
void force_portable_fp_block_gemm(bool portable);  // for tests: the portable build of the kernel

}  // namespace ozref::mma
