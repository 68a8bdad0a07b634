// ozref's tcgen05 GEMM (tcgen05_gemm.hpp). One block of four warps per 128 x 128 outputs, the
// accumulators in tensor memory (lane = row, column = column; 128 columns allocated), zeroed by
// the warps first: the model's chain starts from +0, so every instruction adds the D before it
// (enable-input-d set). K runs in stages of 64 bytes through two shared-memory buffers: all
// threads copy A's and B's tiles into the canonical K-major layout (E2M1 repacked into
// .b4x16_p64), one thread issues the stage's instructions in K order (two of K = 32, or one where
// K padded to 32 ends) and commits them to the stage's mbarrier, which the threads wait on before
// they overwrite that buffer. Then each warp loads its 32 lanes of D with tcgen05.ld and stores
// them. The encodings, and the PTX ISA sections they follow: tcgen05_encoding.cuh.
#include <cuda_runtime.h>

#include "gemm/grid_rows.hpp"
#include "gemm/mbarrier.cuh"
#include "gemm/tcgen05_encoding.cuh"
#include "gemm/tcgen05_gemm.hpp"
#include "runtime/cuda_check.hpp"

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define OZREF_TCGEN05_ENABLED 1
#endif

namespace ozref::device {
namespace {

using tcgen05::Kind;
using tcgen05::Operand;
constexpr int kThreads = 128;

// Rows r0.. of a (rows x k) byte matrix, K bytes k0 .. k0 + 63, into a tile (zeros outside it).
template <bool Fp4>
__device__ void load_tile(const uint8_t* x, size_t rows, size_t k, size_t r0, size_t k0, uint8_t* tile) {
  using namespace tcgen05;
  for (int chunk = threadIdx.x; chunk < kTileRows * (kChunkK / 16); chunk += kThreads) stage_container(x, rows, k, r0, k0, chunk, Fp4, tile);
}

#ifdef OZREF_TCGEN05_ENABLED
constexpr int kStages = 2;
constexpr uint32_t kTmemColumns = tcgen05::kTileRows;  // N of the tile; a power of 2 in [32, 512]

// Tensor-memory and shared-memory work of all threads before the barrier ordered before tcgen05
// work after it (§9.7.16.6.3).
__device__ inline void tcgen05_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
}

// Zeros into 16 columns of this warp's 32 lanes (32x32b shape: thread t writes lane t).
__device__ inline void tmem_zero16(uint32_t taddr) {
  const uint32_t z = 0;
  asm volatile(
      "tcgen05.st.sync.aligned.32x32b.x16.b32 [%0], {%1, %1, %1, %1, %1, %1, %1, %1, %1, %1, %1, %1, %1, %1, %1, %1};\n" ::"r"(taddr),
      "r"(z)
      : "memory");
}

// 16 columns of this warp's 32 lanes: thread t gets lane t, register j column j.
__device__ inline void tmem_load16(uint32_t taddr, uint32_t* v) {
  asm volatile(
      "tcgen05.ld.sync.aligned.32x32b.x16.b32 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15}, [%16];\n"
      : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7]), "=r"(v[8]), "=r"(v[9]),
        "=r"(v[10]), "=r"(v[11]), "=r"(v[12]), "=r"(v[13]), "=r"(v[14]), "=r"(v[15])
      : "r"(taddr)
      : "memory");
  asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory");
}

// D (tensor memory) = A B + D for one K = 32 step, A and B by their shared-memory descriptors.
template <Kind K>
__device__ inline void mma(uint32_t d, uint64_t a, uint64_t b, uint32_t idesc) {
  if constexpr (K == Kind::F8F6F4)
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\ntcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3, p;\n}\n" ::"r"(d),
                 "l"(a), "l"(b), "r"(idesc), "r"(1)
                 : "memory");
  else
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\ntcgen05.mma.cta_group::1.kind::i8 [%0], %1, %2, %3, p;\n}\n" ::"r"(d), "l"(a),
                 "l"(b), "r"(idesc), "r"(1)
                 : "memory");
}

// The mbarrier completes a phase when every tcgen05 operation this thread issued so far has.
__device__ inline void commit(uint64_t* bar) {
  asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n" ::"r"(shared_address(bar)) : "memory");
}
#endif

template <Kind K, bool Fp4>
__global__ void __launch_bounds__(kThreads) gemm_kernel(size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b, uint32_t* c,
                                                        uint32_t idesc) {
#ifdef OZREF_TCGEN05_ENABLED
  using namespace tcgen05;
  __shared__ __align__(128) uint8_t sa[kStages][kTileBytes], sb[kStages][kTileBytes];
  __shared__ __align__(8) uint64_t done[kStages];
  __shared__ uint32_t tmem_slot;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const size_t bm = size_t(blockIdx.y) * kTileRows, bn = size_t(blockIdx.x) * kTileRows;
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n" ::"r"(shared_address(&tmem_slot)), "n"(kTmemColumns)
                 : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" ::: "memory");
  }
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) barrier_init(&done[s], 1);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  tcgen05_sync();
  const uint32_t tmem = tmem_slot, lanes = uint32_t(warp * 32);
  for (uint32_t col = 0; col < kTmemColumns; col += 16) tmem_zero16(tmem_address(tmem, lanes, col));
  asm volatile("tcgen05.wait::st.sync.aligned;\n" ::: "memory");
  const size_t chunks = (k + kChunkK - 1) / kChunkK;
  for (size_t i = 0; i < chunks; ++i) {
    const int s = int(i % kStages);
    if (i >= size_t(kStages)) barrier_wait(&done[s], uint32_t((i / kStages - 1) & 1));  // its last instructions are done
    load_tile<Fp4>(a, m, k, bm, i * kChunkK, sa[s]);
    load_tile<Fp4>(b, n, k, bn, i * kChunkK, sb[s]);
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // threads' stores, read by the MMA
    tcgen05_sync();
    if (threadIdx.x == 0) {
      const uint32_t a0 = shared_address(sa[s]), b0 = shared_address(sb[s]);
      for (int j = 0; j < instructions_in_chunk(k, i * kChunkK); ++j)
        mma<K>(tmem, smem_descriptor(a0 + instr_offset(j)), smem_descriptor(b0 + instr_offset(j)), idesc);
      commit(&done[s]);
    }
    __syncwarp();
  }
  for (int s = 0; s < kStages; ++s)  // the last phase of each buffer's barrier
    if (chunks > size_t(s)) barrier_wait(&done[s], uint32_t(((chunks - 1 - s) / kStages) & 1));
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
  const size_t row = bm + lanes + lane;
  for (uint32_t col = 0; col < kTmemColumns; col += 16) {
    uint32_t v[16];
    tmem_load16(tmem_address(tmem, lanes, col), v);
    if (row < m)
      for (int j = 0; j < 16; ++j)
        if (bn + col + j < n) c[row * n + bn + col + j] = v[j];
  }
  tcgen05_sync();
  if (warp == 0) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\n" ::"r"(tmem), "n"(kTmemColumns) : "memory");
#else
  (void)m, (void)n, (void)k, (void)a, (void)b, (void)c, (void)idesc;
  __trap();  // no tcgen05 here: the dispatch (gpu_gemm.cpp) never launches it off sm_100
#endif
}

template <Kind K, bool Fp4>
void launch(size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c, uint32_t idesc) {
  if (m == 0 || n == 0) return;
  const size_t tile = tcgen05::kTileRows;
  const dim3 grid(static_cast<unsigned>((n + tile - 1) / tile), grid_row_tiles("tcgen05 GEMM", m, tile));
  gemm_kernel<K, Fp4><<<grid, kThreads>>>(m, n, k, a, b_columns, c, idesc);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace

void tcgen05_gemm(Tcgen05Op op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c) {
  using tcgen05::instruction_descriptor;
  switch (op) {
    case Tcgen05Op::E4M3: return launch<Kind::F8F6F4, false>(m, n, k, a, b_columns, c, instruction_descriptor(Kind::F8F6F4, Operand::E4M3));
    case Tcgen05Op::E5M2: return launch<Kind::F8F6F4, false>(m, n, k, a, b_columns, c, instruction_descriptor(Kind::F8F6F4, Operand::E5M2));
    case Tcgen05Op::E2M1: return launch<Kind::F8F6F4, true>(m, n, k, a, b_columns, c, instruction_descriptor(Kind::F8F6F4, Operand::E2M1));
    case Tcgen05Op::S8: return launch<Kind::I8, false>(m, n, k, a, b_columns, c, instruction_descriptor(Kind::I8, Operand::S8));
    case Tcgen05Op::U8: return launch<Kind::I8, false>(m, n, k, a, b_columns, c, instruction_descriptor(Kind::I8, Operand::U8));
    case Tcgen05Op::S8Sat: return launch<Kind::I8, false>(m, n, k, a, b_columns, c, instruction_descriptor(Kind::I8, Operand::S8, true));
    case Tcgen05Op::U8Sat: return launch<Kind::I8, false>(m, n, k, a, b_columns, c, instruction_descriptor(Kind::I8, Operand::U8, true));
  }
}

}  // namespace ozref::device
