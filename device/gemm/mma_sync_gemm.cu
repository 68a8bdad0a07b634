// ozref's GEMMs on mma.sync m16n8k32 with 8-bit operands: the eight INT8 forms (s8/u8 operands,
// wrapping or .satfinite), the FP8 forms e4m3 and e5m2, and (sm_120a only) kind::f8f6f4 e2m1, its
// FP4 operands in the central 4 bits of 8-bit containers (mma_sync_gemm.hpp). Blocks of 128 x 128
// outputs, 8 warps of 64 x 32, K in steps of 64 staged through shared memory. Rows, columns and K
// beyond the matrix are zeros, so any shape works. Each output is one chain of instructions along
// K in order, starting from zero, as the CPU model runs it: the INT8 result is the exact INT32 sum
// (wrapping as the instruction does); the FP8 one is the H200's FP32 accumulation of that chain,
// bit for bit what the model of the instruction gives; the FP4 one is what the sm_120 model says
// (no Blackwell GPU has run it: docs/gpu.md).
#include "gemm/grid_rows.hpp"
#include "gemm/int8_gemm.hpp"
#include "gemm/mma_sync_gemm.hpp"
#include "runtime/cuda_check.hpp"

namespace ozref::device {
namespace {

constexpr int kBM = 128, kBN = 128, kBK = 64, kStride = kBK + 16;  // bytes per shared row (padded)
constexpr int kThreads = 256;

// Rows r0.. of a (rows x k) byte matrix, columns k0 .. k0 + 63, into shared memory (zeros outside).
template <typename T>
__device__ void load_tile(const T* x, size_t rows, size_t k, size_t r0, size_t k0, T* s) {
  const bool aligned = k % 16 == 0;
  for (int chunk = threadIdx.x; chunk < kBM * (kBK / 16); chunk += kThreads) {
    const int r = chunk / (kBK / 16), c = chunk % (kBK / 16) * 16;
    T* dst = s + r * kStride + c;
    const size_t row = r0 + r, col = k0 + c;
    if (row < rows && aligned && col + 16 <= k) {
      *reinterpret_cast<int4*>(dst) = *reinterpret_cast<const int4*>(x + row * k + col);
    } else {
      for (int i = 0; i < 16; ++i) dst[i] = row < rows && col + i < k ? x[row * k + col + i] : 0;
    }
  }
}

template <typename T>
__device__ inline uint32_t shared_u32(const T* p) { return *reinterpret_cast<const uint32_t*>(p); }

// The instructions: d = a b + d on one m16n8k32 tile, 32-bit accumulators as bit patterns (.u32
// operands of the asm for the FP32 forms too).
#define OZREF_MMA_SYNC(NAME, PTX)                                                                                       \
  struct NAME {                                                                                                         \
    __device__ static void run(uint32_t* d, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1) { \
      asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"                                      \
                   : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                                     \
                   : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));                                             \
    }                                                                                                                   \
  };
OZREF_MMA_SYNC(S8S8, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32")
OZREF_MMA_SYNC(S8U8, "mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32")
OZREF_MMA_SYNC(U8S8, "mma.sync.aligned.m16n8k32.row.col.s32.u8.s8.s32")
OZREF_MMA_SYNC(U8U8, "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32")
OZREF_MMA_SYNC(S8S8Sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32")
OZREF_MMA_SYNC(S8U8Sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.u8.s32")
OZREF_MMA_SYNC(U8S8Sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32")
OZREF_MMA_SYNC(U8U8Sat, "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32")
OZREF_MMA_SYNC(E4M3, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32")
OZREF_MMA_SYNC(E5M2, "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32")
#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM120_ALL)
struct E2M1 {  // sm_90a and sm_100a have no mma.sync for FP4: the dispatch never launches it there
  __device__ static void run(uint32_t*, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t) { __trap(); }
};
#else
OZREF_MMA_SYNC(E2M1, "mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32")
#endif
#undef OZREF_MMA_SYNC

template <typename Mma>
__global__ void __launch_bounds__(kThreads) gemm_kernel(size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b, uint32_t* c) {
  using T = uint8_t;
  __shared__ __align__(16) T sa[kBM * kStride], sb[kBN * kStride];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
  const int wm = warp / 4 * 64, wn = warp % 4 * 32;  // the warp's 64 x 32 outputs in the block
  const size_t bm = size_t(blockIdx.y) * kBM, bn = size_t(blockIdx.x) * kBN;
  uint32_t acc[4][4][4] = {};
  for (size_t k0 = 0; k0 < k; k0 += kBK) {
    load_tile(a, m, k, bm, k0, sa);
    load_tile(b, n, k, bn, k0, sb);
    __syncthreads();
    for (int kk = 0; kk < kBK && k0 + kk < k; kk += 32)  // K padded to 32, as the model pads it
      for (int i = 0; i < 4; ++i) {
        const T* ar = sa + (wm + i * 16 + g) * kStride + kk + 4 * t;
        const uint32_t a0 = shared_u32(ar), a1 = shared_u32(ar + 8 * kStride), a2 = shared_u32(ar + 16), a3 = shared_u32(ar + 8 * kStride + 16);
        for (int j = 0; j < 4; ++j) {
          const T* br = sb + (wn + j * 8 + g) * kStride + kk + 4 * t;
          const uint32_t b0 = shared_u32(br), b1 = shared_u32(br + 16);
          Mma::run(acc[i][j], a0, a1, a2, a3, b0, b1);
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

template <typename Mma>
void launch(size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c) {
  if (m == 0 || n == 0) return;
  const dim3 grid(static_cast<unsigned>((n + kBN - 1) / kBN), grid_row_tiles("mma.sync GEMM", m, kBM));
  gemm_kernel<Mma><<<grid, kThreads>>>(m, n, k, a, b_columns, c);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace

void mma_sync_gemm(MmaSyncOp op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c) {
  switch (op) {
#define OZREF_CASE(NAME) \
  case MmaSyncOp::NAME: return launch<NAME>(m, n, k, a, b_columns, c);
    OZREF_CASE(S8S8) OZREF_CASE(S8U8) OZREF_CASE(U8S8) OZREF_CASE(U8U8) OZREF_CASE(S8S8Sat) OZREF_CASE(S8U8Sat) OZREF_CASE(U8S8Sat)
    OZREF_CASE(U8U8Sat) OZREF_CASE(E4M3) OZREF_CASE(E5M2) OZREF_CASE(E2M1)
#undef OZREF_CASE
  }
}

void int8_gemm_mma(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, int32_t* c) {
  mma_sync_gemm(MmaSyncOp::S8S8, m, n, k, reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b_columns),
                reinterpret_cast<uint32_t*>(c));
}

}  // namespace ozref::device
