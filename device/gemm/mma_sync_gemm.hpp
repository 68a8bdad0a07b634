// ozref's GEMM kernel on mma.sync.aligned.m16n8k32 with 8-bit operands, any instruction of that
// shape the sm_90 model holds and sm_120's FP4 one: C (m x n, 32-bit patterns, row-major) = A
// (m x k bytes, row-major) B with B held by columns (n x k bytes). Each output is one chain of instructions along K from
// zero, K padded to 32 with zeros, as the CPU model runs it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ozref::device {

// E2M1: kind::f8f6f4 e2m1, sm_120a only.
enum class MmaSyncOp { S8S8, S8U8, U8S8, U8U8, S8S8Sat, S8U8Sat, U8S8Sat, U8U8Sat, E4M3, E5M2, E2M1 };

void mma_sync_gemm(MmaSyncOp op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c);

}  // namespace ozref::device
