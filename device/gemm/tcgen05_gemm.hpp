// ozref's GEMM kernel on tcgen05.mma.cta_group::1 (sm_100a only): kind::f8f6f4 with E4M3, E5M2 or
// E2M1 operands (FP32 D) and kind::i8 with s8 or u8 operands (INT32 D, wrapping or saturating),
// as the sm_100 model names them (reference/mma/arch/sm_100.cpp). C (m x n, 32-bit patterns,
// row-major) = A (m x k bytes, row-major) B with B held by columns (n x k bytes); E2M1 in bits 5:2
// of each byte, as for mma.sync. Each output is one chain of instructions along K from a zero
// accumulator, K padded with zeros to 32 and no instruction past it, as the CPU model runs it.
// It compiles but has never run: no Blackwell GPU was available (docs/gpu.md).
#pragma once
#include <cstddef>
#include <cstdint>

namespace ozref::device {

enum class Tcgen05Op { E4M3, E5M2, E2M1, S8, U8, S8Sat, U8Sat };

void tcgen05_gemm(Tcgen05Op op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c);

}  // namespace ozref::device
