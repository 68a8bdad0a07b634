// The kernels of the exact product on the GPU (gpu_exact.cpp drives them), on device pointers;
// each returns once its kernel has finished (CUDA errors as exceptions, runtime/cuda_check.hpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "exact/exact_element.hpp"

namespace ozref::device::exact {

// Residues of slice `slice` (width w; 0: one slice) of `lines` lines (rows of x, or its columns
// when `columns`; x's leading dimension ld), depth [k0, k0 + kb): out[q][l][kk] over lines_padded
// x kp for every modulus q of t, zeros in the padding; *any = 1 when an entry lies in the slice.
void residues(const uint64_t* x, size_t ld, bool columns, size_t lines, size_t lines_padded, size_t k0, size_t kb, size_t kp,
              const int* low, int w, int slice, const exact_element::CrtTables& t, const uint8_t* pow2, int pow2_row, int8_t* out,
              int* any);

// u[i n + j] = c[i np + j] mod m (c: an int8 GEMM's int32 sums, h x np), for i < h, j < n.
void reduce(const int32_t* c, size_t h, size_t n, size_t np, uint32_t m, uint8_t* u);

// For each of `count` elements: its integer from its residues u[q * count + e] (Garner), added to
// its accumulator (words words at acc + e * words) times 2^offset.
void crt(const uint8_t* u, size_t count, const exact_element::CrtTables& t, uint64_t* acc, int words, unsigned offset);

// round_element's fields of every element of an h x n band; flags: bit 0 the residual is
// negative, bit 1 it is exact.
struct RoundedArrays {
  uint64_t* nearest;
  uint32_t* nearest_fp32;
  uint64_t* residual_sig;
  int32_t* residual_exp;
  uint8_t* flags;
};
// Element (i, j)'s value is acc * 2^(row_low[i] + col_low[j]) (0 where a line is empty: INT_MAX).
void round(uint64_t* acc, size_t h, size_t n, int words, const int* row_low, const int* col_low, const RoundedArrays& out);

}  // namespace ozref::device::exact
