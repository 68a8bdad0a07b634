#include "blackwell_kernels.cuh"
#include "mxf4_cases.hpp"
#include "probe_util.cuh"

namespace probe {
namespace {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define OZREF_HAVE_TCGEN05 1
#endif
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM120_ALL)
#define OZREF_HAVE_MMA_BLOCK_SCALE 1
#endif

constexpr int kRowBytes = 32;  // K = 64 packed e2m1

// sm_120a: mma.sync m16n8k64. A registers 0-3 hold k 8t..8t+7 of rows g and g + 8, then
// k 32 + 8t.. of rows g and g + 8; B registers k 8t.. and 32 + 8t.. of column g (PTX ISA, "Matrix
// fragments for mma.m16n8k64"). Scales with byte-id 0 and thread-id 0 (PTX ISA, "Block
// Scaling"): lanes with t = 0 and t = 1 give rows g and g + 8 of scale_A, lanes with t = 0 give
// column g of scale_B; byte j of the register scales K block j (2X: bytes 0 and 1).
template <int OP>
__global__ void mma_sync_mxf4(const uint8_t* A, const uint8_t* B, const uint8_t* SA, const uint8_t* SB, const uint32_t* C,
                              uint32_t* D) {
  constexpr int M = 16, N = 8;
  const int tile = blockIdx.x, lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  const uint8_t* a = A + size_t(tile) * M * kRowBytes;
  const uint8_t* b = B + size_t(tile) * N * kRowBytes;
  const uint8_t* sa = SA + size_t(tile) * M * 4;
  const uint8_t* sb = SB + size_t(tile) * N * 4;
  const uint32_t* c = C + size_t(tile) * M * N;
  uint32_t* d = D + size_t(tile) * M * N;
  const uint32_t a0 = load_u32(a + g * kRowBytes + 4 * t), a1 = load_u32(a + (g + 8) * kRowBytes + 4 * t);
  const uint32_t a2 = load_u32(a + g * kRowBytes + 16 + 4 * t), a3 = load_u32(a + (g + 8) * kRowBytes + 16 + 4 * t);
  const uint32_t b0 = load_u32(b + g * kRowBytes + 4 * t), b1 = load_u32(b + g * kRowBytes + 16 + 4 * t);
  const uint32_t sfa = t == 0 ? load_u32(sa + g * 4) : t == 1 ? load_u32(sa + (g + 8) * 4) : 0u;
  const uint32_t sfb = t == 0 ? load_u32(sb + g * 4) : 0u;
  const uint32_t c0 = c[g * N + 2 * t], c1 = c[g * N + 2 * t + 1], c2 = c[(g + 8) * N + 2 * t], c3 = c[(g + 8) * N + 2 * t + 1];
#ifdef OZREF_HAVE_MMA_BLOCK_SCALE
  uint32_t d0, d1, d2, d3;
#define MMA_MXF4(PTX)                                                                                         \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13}, %14, {0, 0}, %15, {0, 0};\n"  \
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)                                                       \
               : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(c0), "r"(c1), "r"(c2), "r"(c3),     \
                 "r"(sfa), "r"(sfb))
  if constexpr (OP == kMmaSyncVec2Ue8m0)
    MMA_MXF4("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0");
  if constexpr (OP == kMmaSyncVec4Ue4m3)
    MMA_MXF4("mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3");
#undef MMA_MXF4
  d[g * N + 2 * t] = d0;
  d[g * N + 2 * t + 1] = d1;
  d[(g + 8) * N + 2 * t] = d2;
  d[(g + 8) * N + 2 * t + 1] = d3;
#else
  (void)a0, (void)a1, (void)a2, (void)a3, (void)b0, (void)b1, (void)sfa, (void)sfb, (void)c0, (void)c1, (void)c2, (void)c3, (void)d;
#endif
}

// sm_100a: tcgen05.mma.cta_group::1.kind::mxf4nvf4, M = N = 128, one CTA of four warps.
// - A and B in shared memory, K-major without swizzle: 8-row x 16-byte core matrices, core
//   (r, kb) at byte (2r + kb) * 128, so leading byte offset 128 (along K) and stride byte offset
//   256 (along M or N), as the H200's wgmma probe lays them out (PTX ISA, "Canonical layouts").
// - D in tensor memory: row m in lane m, column n in column n (PTX ISA, "Layout D"), loaded with
//   C first (enable-input-d); scales after it: lane l, column 128 + j holds the four scale bytes
//   of row 32j + l of A, column 132 + j those of column 32j + l of B, the same in each warp's 32
//   lanes (PTX ISA: scale factors are duplicated to all four lane partitions; the layout that
//   tcgen05.cp 32x128b.warpx4 writes).
// - Instruction descriptor (PTX ISA, "Instruction descriptor" for kind::mxf4nvf4): A and B e2m1
//   (1 at bits 7-9 and 10-11), K-major, N >> 3 at bits 17-22, scale type at bit 23 (1: UE8M0,
//   0: UE4M3), M >> 7 at bits 27-28, scale factor ids 0, dense K = 64.
constexpr int kTileM = 128, kTileN = 128;

#ifdef OZREF_HAVE_TCGEN05
constexpr int kScaleColumn = 128, kTmemColumns = 256;

__device__ constexpr uint32_t mxf4nvf4_descriptor(bool ue8m0) {
  return 1u << 7 | 1u << 10 | uint32_t(kTileN >> 3) << 17 | uint32_t(ue8m0) << 23 | uint32_t(kTileM >> 7) << 27;
}

__device__ void tmem_store_x8(uint32_t taddr, const uint32_t* v) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x8.b32 [%0], {%1, %2, %3, %4, %5, %6, %7, %8};\n" ::"r"(taddr), "r"(v[0]),
               "r"(v[1]), "r"(v[2]), "r"(v[3]), "r"(v[4]), "r"(v[5]), "r"(v[6]), "r"(v[7])
               : "memory");
}

__device__ void tmem_load_x8(uint32_t taddr, uint32_t* v) {
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x8.b32 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8];\n"
               : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3]), "=r"(v[4]), "=r"(v[5]), "=r"(v[6]), "=r"(v[7])
               : "r"(taddr)
               : "memory");
  asm volatile("tcgen05.wait::ld.sync.aligned;\n" ::: "memory");
}

// All threads of the CTA: tensor-memory and shared-memory work before the barrier is ordered
// before tcgen05 work after it.
__device__ void tcgen05_sync() {
  asm volatile("tcgen05.fence::before_thread_sync;\n" ::: "memory");
  __syncthreads();
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
}
#endif

template <int OP>
__global__ void __launch_bounds__(128) tcgen05_mxf4(const uint8_t* A, const uint8_t* B, const uint8_t* SA,
                                                    const uint8_t* SB, const uint32_t* C, uint32_t* D) {
  __shared__ __align__(128) uint8_t sa[kTileM * kRowBytes];
  __shared__ __align__(128) uint8_t sb[kTileN * kRowBytes];
  __shared__ __align__(8) uint64_t mbar;
  __shared__ uint32_t tmem_slot;
  const int tile = blockIdx.x, tid = threadIdx.x, warp = tid / 32, lane = tid % 32, row = tid;
  A += size_t(tile) * kTileM * kRowBytes;
  B += size_t(tile) * kTileN * kRowBytes;
  SA += size_t(tile) * kTileM * 4;
  SB += size_t(tile) * kTileN * 4;
  C += size_t(tile) * kTileM * kTileN;
  D += size_t(tile) * kTileM * kTileN;
#ifdef OZREF_HAVE_TCGEN05
  for (int i = tid; i < kTileM * kRowBytes; i += 128) {
    const int r = i / kRowBytes, k = i % kRowBytes;
    sa[((r / 8) * 2 + k / 16) * 128 + (r % 8) * 16 + k % 16] = A[i];
    sb[((r / 8) * 2 + k / 16) * 128 + (r % 8) * 16 + k % 16] = B[i];  // kTileN == kTileM
  }
  const uint32_t mbar_addr = static_cast<uint32_t>(__cvta_generic_to_shared(&mbar));
  if (warp == 0) {
    asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;\n" ::"r"(
                     static_cast<uint32_t>(__cvta_generic_to_shared(&tmem_slot))),
                 "n"(kTmemColumns)
                 : "memory");
    asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;\n" ::: "memory");
  }
  if (tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(mbar_addr) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // A and B, written by threads, read by the MMA
  tcgen05_sync();
  const uint32_t tmem = tmem_slot, lanes = uint32_t(warp * 32) << 16;  // this warp's lanes of tensor memory
  for (int col = 0; col < kTileN; col += 8) tmem_store_x8(tmem + lanes + uint32_t(col), C + row * kTileN + col);
  uint32_t scales[8];
  for (int j = 0; j < 4; ++j) {
    scales[j] = load_u32(SA + (32 * j + lane) * 4);
    scales[4 + j] = load_u32(SB + (32 * j + lane) * 4);
  }
  tmem_store_x8(tmem + lanes + kScaleColumn, scales);  // columns 128-131: A's, 132-135: B's
  asm volatile("tcgen05.wait::st.sync.aligned;\n" ::: "memory");
  tcgen05_sync();
  if (tid == 0) {
    const uint64_t tcgen05_version = uint64_t{1} << 46;  // descriptor bits 46-48: 0b001
    const uint64_t da = smem_descriptor(sa, 128, 256) | tcgen05_version, db = smem_descriptor(sb, 128, 256) | tcgen05_version;
    // The scale format is the descriptor's bit 23; the instruction is the same for both.
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
        "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X [%0], %1, %2, %3, [%4], [%5], p;\n}\n" ::"r"(tmem),
        "l"(da), "l"(db), "r"(mxf4nvf4_descriptor(OP == kTcgen05Vec4Ue8m0)), "r"(tmem + kScaleColumn), "r"(tmem + kScaleColumn + 4),
        "r"(1)
        : "memory");
    asm volatile("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%0];\n" ::"r"(mbar_addr) : "memory");
  }
  for (uint32_t done = 0; !done;)
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}\n"
                 : "=r"(done)
                 : "r"(mbar_addr)
                 : "memory");
  asm volatile("tcgen05.fence::after_thread_sync;\n" ::: "memory");
  for (int col = 0; col < kTileN; col += 8) tmem_load_x8(tmem + lanes + uint32_t(col), D + row * kTileN + col);
  tcgen05_sync();
  if (warp == 0) asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;\n" ::"r"(tmem), "n"(kTmemColumns) : "memory");
#else
  (void)sa, (void)sb, (void)mbar, (void)tmem_slot, (void)warp, (void)lane, (void)row;
#endif
}

}  // namespace

void launch_mxf4(int op, int tiles, const uint8_t* a, const uint8_t* b, const uint8_t* scale_a, const uint8_t* scale_b,
                 const uint32_t* c, uint32_t* d) {
  switch (op) {
    case kTcgen05Vec4Ue8m0: tcgen05_mxf4<kTcgen05Vec4Ue8m0><<<tiles, 128>>>(a, b, scale_a, scale_b, c, d); break;
    case kTcgen05Vec4Ue4m3: tcgen05_mxf4<kTcgen05Vec4Ue4m3><<<tiles, 128>>>(a, b, scale_a, scale_b, c, d); break;
    case kMmaSyncVec2Ue8m0: mma_sync_mxf4<kMmaSyncVec2Ue8m0><<<tiles, 32>>>(a, b, scale_a, scale_b, c, d); break;
    case kMmaSyncVec4Ue4m3: mma_sync_mxf4<kMmaSyncVec4Ue4m3><<<tiles, 32>>>(a, b, scale_a, scale_b, c, d); break;
  }
}

}  // namespace probe
