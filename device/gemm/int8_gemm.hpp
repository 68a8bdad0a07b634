// INT8 GEMMs on the GPU, C (m x n, INT32, row-major) = A (m x k, s8, row-major) B with B held by
// columns (n x k, s8): ozref's own kernel on mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 (the
// instruction the CPU model of ozaki2-int8 issues), or cuBLASLt's INT8 GEMM (what a user would
// pick; loaded at run time, so ozref needs no cuBLAS to start).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ozref::device {

void int8_gemm_mma(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, int32_t* c);

// cuBLASLt: InputError-like std::runtime_error when libcublasLt.so cannot be loaded or refuses the
// shape (it needs k and the leading dimensions multiples of 4). `algorithm` receives a description
// of the algorithm it chose.
void int8_gemm_cublaslt(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, int32_t* c, std::string* algorithm);

}  // namespace ozref::device
