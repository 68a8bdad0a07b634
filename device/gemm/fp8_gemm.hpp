// ozref's FP8 GEMM on the GPU, C (m x n, FP32, row-major) = A (m x k, E4M3 bytes, row-major) B with B
// held by columns (n x k): mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32, one chain of
// instructions along K per output from zero, as the CPU model of ozaki2-fp8 on sm_90 issues it.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ozref::device {

void fp8_gemm_mma(size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, float* c);

}  // namespace ozref::device
