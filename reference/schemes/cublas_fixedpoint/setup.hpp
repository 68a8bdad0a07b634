// What the stages of one cublas-fixedpoint@13.1 run share: the bit count and its slices, the
// K-blocks (each with its own scales) and the INT8 GEMM of the sm_90 model (cuBLAS's INT8 GEMMs on
// the H200: exact INT32 sums).
#pragma once
#include <algorithm>
#include <cstddef>

#include "schemes/common/lowp_gemm.hpp"

namespace ozref::schemes::cublas_fixedpoint {

struct Setup {
  // bits: the count asked for (quantized up to 8p - 1); kblock 0: kblock_size's.
  Setup(int bits, size_t kblock, size_t m, size_t n, size_t k);
  int requested;  // the count as given
  size_t p;       // slices: ceil((requested + 1) / 8)
  int bits;       // 8p - 1, the bits each element keeps below its line's scale
  size_t m, n, k, kb, blocks;
  LowpGemm gemm;  // s8 x s8 -> s32

  size_t block_begin(size_t block) const { return block * kb; }
  size_t block_length(size_t block) const { return std::min(kb, k - block * kb); }
};

}  // namespace ozref::schemes::cublas_fixedpoint
