// ozref's INT8 GEMM on mma.sync m16n8k32 s8.s8.s32: blocks of 128 x 128 outputs, 8 warps of 64 x 32,
// K in steps of 64 staged through shared memory (two buffers). Rows, columns and K beyond the
// matrix are zeros, so any shape works; the result is the exact INT32 sum (wrapping as the
// instruction does), independent of the tiling.
#include "gemm/int8_gemm.hpp"
#include "runtime/cuda_check.hpp"

namespace ozref::device {
namespace {

constexpr int kBM = 128, kBN = 128, kBK = 64, kStride = kBK + 16;  // bytes per shared row (padded)
constexpr int kThreads = 256;

// Rows r0.. of a (rows x k) byte matrix, columns k0 .. k0 + 63, into shared memory (zeros outside).
__device__ void load_tile(const int8_t* x, size_t rows, size_t k, size_t r0, size_t k0, int8_t* s) {
  const bool aligned = k % 16 == 0;
  for (int chunk = threadIdx.x; chunk < kBM * (kBK / 16); chunk += kThreads) {
    const int r = chunk / (kBK / 16), c = chunk % (kBK / 16) * 16;
    int8_t* dst = s + r * kStride + c;
    const size_t row = r0 + r, col = k0 + c;
    if (row < rows && aligned && col + 16 <= k) {
      *reinterpret_cast<int4*>(dst) = *reinterpret_cast<const int4*>(x + row * k + col);
    } else {
      for (int i = 0; i < 16; ++i) dst[i] = row < rows && col + i < k ? x[row * k + col + i] : 0;
    }
  }
}

__device__ inline uint32_t shared_u32(const int8_t* p) { return *reinterpret_cast<const uint32_t*>(p); }

__global__ void __launch_bounds__(kThreads) int8_gemm_kernel(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b, int32_t* c) {
  __shared__ __align__(16) int8_t sa[kBM * kStride], sb[kBN * kStride];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int wm = warp / 4 * 64, wn = warp % 4 * 32;  // the warp's 64 x 32 outputs in the block
  const size_t bm = size_t(blockIdx.y) * kBM, bn = size_t(blockIdx.x) * kBN;
  int32_t acc[4][4][4] = {};
  for (size_t k0 = 0; k0 < k; k0 += kBK) {
    load_tile(a, m, k, bm, k0, sa);
    load_tile(b, n, k, bn, k0, sb);
    __syncthreads();
    for (int kk = 0; kk < kBK; kk += 32)
      for (int i = 0; i < 4; ++i) {
        const int8_t* ar = sa + (wm + i * 16 + g) * kStride + kk + 4 * t;
        const uint32_t a0 = shared_u32(ar), a1 = shared_u32(ar + 8 * kStride), a2 = shared_u32(ar + 16), a3 = shared_u32(ar + 8 * kStride + 16);
        for (int j = 0; j < 4; ++j) {
          const int8_t* br = sb + (wn + j * 8 + g) * kStride + kk + 4 * t;
          const uint32_t b0 = shared_u32(br), b1 = shared_u32(br + 16);
          int32_t* d = acc[i][j];
          asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                       : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                       : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
        }
      }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int h = 0; h < 4; ++h) {  // d0, d1: row g, columns 2t, 2t+1; d2, d3: row g + 8
        const size_t row = bm + wm + i * 16 + g + (h / 2) * 8, col = bn + wn + j * 8 + 2 * t + h % 2;
        if (row < m && col < n) c[row * n + col] = acc[i][j][h];
      }
}

}  // namespace

void int8_gemm_mma(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, int32_t* c) {
  if (m == 0 || n == 0) return;
  const dim3 grid(static_cast<unsigned>((n + kBN - 1) / kBN), static_cast<unsigned>((m + kBM - 1) / kBM));
  int8_gemm_kernel<<<grid, kThreads>>>(m, n, k, a, b_columns, c);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device
