// ozref's wgmma GEMM (wgmma_gemm.hpp). A persistent grid, one block per multiprocessor, each taking
// tiles of 128 x 256 outputs in turn with three warpgroups: the first loads tiles of A (128 x 128
// bytes) and B (256 x 128 bytes) with the bulk tensor copy engine into a ring of four
// shared-memory stages (128-byte swizzle, completion on mbarriers), running ahead into the next
// tile; the other two each run wgmma m64n256k32 on 64 of the rows, four instructions per stage in
// K order, hand a stage back once their instructions on it are done, and store their outputs. Operands the copy engine
// cannot address (K not a multiple of 16 bytes, or a misaligned start) are first copied into
// padded rows; elements outside the matrix load as zeros, and no instruction runs past K padded
// to 32, so the chain of every output is the model's.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gemm/wgmma_gemm.hpp"
#include "gemm/mbarrier.cuh"
#include "gemm/wgmma_ops.cuh"
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"

namespace ozref::device {
namespace {

constexpr int kBM = 128, kBN = 256, kBK = 128, kStages = 4, kThreads = 384;
constexpr int kTileA = kBM * kBK, kTileB = kBN * kBK, kStageBytes = kTileA + kTileB;
constexpr size_t kSharedBytes = size_t(kStages) * kStageBytes + 1024;  // + room to align to 1024

// A box of the tensor map (columns k0.., rows row0..) into shared memory, completing on `bar`.
__device__ inline void tensor_load(const CUtensorMap* map, uint64_t* bar, void* dst, int k0, int row0) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
                   shared_address(dst)),
               "l"(map), "r"(k0), "r"(row0), "r"(shared_address(bar))
               : "memory");
}

// A K-major tile of 128-byte rows in the copy engine's 128-byte swizzle: groups of 8 rows 1024
// bytes apart (the stride offset); the leading offset is unused in this layout (1 by convention).
__device__ inline uint64_t swizzled_descriptor(const void* tile) {
  return uint64_t((shared_address(tile) >> 4) & 0x3FFF) | uint64_t(1) << 16 | uint64_t(1024 >> 4) << 32 | uint64_t(1) << 62;
}

// Tiles in groups of 8 along M, so that consecutive blocks share B's tiles in L2.
__device__ inline void tile_of_block(unsigned block, unsigned tiles_m, unsigned tiles_n, unsigned& tm, unsigned& tn) {
  const unsigned group = block / (8 * tiles_n), first = group * 8, rows = min(tiles_m - first, 8u);
  tm = first + block % (8 * tiles_n) % rows;
  tn = block % (8 * tiles_n) / rows;
}

// The epilogues: the raw 32-bit outputs, or their balanced residues modulo a modulus (the reduce
// stage fused). Each stores the outputs at `at` and at + 1 (when `both`), as one access when the
// pair's address is aligned to it (a GEMM's C may start anywhere in a larger array). `plane(p, mn)`
// is the epilogue of plane p of a batch, whose outputs start p mn elements further on.
struct StoreRaw {
  uint32_t* c;
  __device__ StoreRaw plane(unsigned p, size_t mn) const { return {c + p * mn}; }
  __device__ void operator()(size_t at, uint32_t v0, uint32_t v1, bool both) const {
    if (both && reinterpret_cast<uintptr_t>(c + at) % 8 == 0) {
      *reinterpret_cast<uint2*>(c + at) = make_uint2(v0, v1);
      return;
    }
    c[at] = v0;
    if (both) c[at + 1] = v1;
  }
};
struct StoreResidue {
  int16_t* r;
  int32_t modulus, factor;  // the Barrett factor, computed on the host (3 <= modulus < 2^15)
  __device__ void operator()(size_t at, uint32_t v0, uint32_t v1, bool both) const {
    const int16_t r0 = residue(v0), r1 = both ? residue(v1) : 0;
    if (both && reinterpret_cast<uintptr_t>(r + at) % 4 == 0) {
      *reinterpret_cast<uint32_t*>(r + at) = uint32_t(uint16_t(r0)) | uint32_t(uint16_t(r1)) << 16;
      return;
    }
    r[at] = r0;
    if (both) r[at + 1] = r1;
  }
  __device__ int16_t residue(uint32_t v) const {
    return static_cast<int16_t>(ozaki2::barrett_residue32(static_cast<int32_t>(v), modulus, factor));
  }
};
// A batch's fused reduction: plane p modulo its own modulus (by value in the kernel's parameters).
struct StoreResidues {
  int16_t* r;
  int32_t modulus[kMaxReducedPlanes], factor[kMaxReducedPlanes];
  __device__ StoreResidue plane(unsigned p, size_t mn) const { return {r + p * mn, modulus[p], factor[p]}; }
};

// One consumer warpgroup's 64 x 256 outputs: thread (warp w, lane 4g + q) holds, for each block of
// 8 columns j, rows 16w + g and 16w + g + 8 at columns 8j + 2q and 8j + 2q + 1.
template <typename Store>
__device__ void store_outputs(const uint32_t (&d)[128], size_t row0, size_t col0, size_t m, size_t n, const Store& store) {
  const int t = threadIdx.x % 128, w = t / 32, g = t % 32 / 4, q = t % 4;
#pragma unroll
  for (int i = 0; i < 128; i += 2) {
    const size_t row = row0 + 16 * w + g + (i % 4) / 2 * 8, col = col0 + 8 * (i / 4) + 2 * q;
    if (row < m && col < n) store(row * n + col, d[i], d[i + 1], col + 1 < n);
  }
}

// A wgmma fence, commit or wait; nothing where wgmma does not exist (the library is built for
// Blackwell too; the kernel traps there and the dispatch never launches it, gpu_gemm.cpp).
#ifdef OZREF_WGMMA_ENABLED
#define OZREF_WGMMA_SYNC(PTX) asm volatile(PTX "\n" ::: "memory")
#else
#define OZREF_WGMMA_SYNC(PTX) ((void)0)
#endif

// The first `steps` K steps of a stage, in order (32 bytes along K are 2 units of a descriptor's address).
template <typename Op, int steps>
__device__ inline void issue(uint32_t (&d)[128], uint64_t da, uint64_t db) {
  OZREF_WGMMA_SYNC("wgmma.fence.sync.aligned;");
#pragma unroll
  for (int j = 0; j < steps; ++j) Op::mma(d, da + 2 * j, db + 2 * j);
  OZREF_WGMMA_SYNC("wgmma.commit_group.sync.aligned;");
}

// The block's tiles (a persistent grid: tiles blockIdx.x, + gridDim.x, ...) and the ring of stages.
// A batch's planes share the grid: tile t is tile t mod (tiles_m tiles_n) of plane t / (tiles_m tiles_n).
struct Ring {
  uint8_t* stages;
  uint64_t *full, *empty;
  unsigned tiles_m, tiles_n, planes;
  __device__ unsigned tiles() const { return tiles_m * tiles_n * planes; }
  __device__ void place(unsigned tile, unsigned& plane, unsigned& tm, unsigned& tn) const {
    const unsigned per_plane = tiles_m * tiles_n;
    plane = tile / per_plane;
    tile_of_block(tile - plane * per_plane, tiles_m, tiles_n, tm, tn);
  }
};

// The loads of every K tile of every tile of the block, into the ring in order: stage it % 4 is
// refilled once both consumers handed its previous fill back. The planes are stacked in the tensor
// maps (A: planes m rows, B: planes n rows); rows of a plane's last tile past its m (n) are the next
// plane's, whose outputs are never stored.
__device__ void produce(const CUtensorMap* map_a, const CUtensorMap* map_b, const Ring& ring, int k_tiles, unsigned m, unsigned n) {
  int it = 0;
  for (unsigned tile = blockIdx.x; tile < ring.tiles(); tile += gridDim.x) {
    unsigned plane, tm, tn;
    ring.place(tile, plane, tm, tn);
    for (int kt = 0; kt < k_tiles; ++kt, ++it) {
      const int s = it % kStages;
      if (it >= kStages) barrier_wait(&ring.empty[s], (it / kStages - 1) & 1);
      barrier_expect_bytes(&ring.full[s], kStageBytes);
      uint8_t* stage = ring.stages + size_t(s) * kStageBytes;
      tensor_load(map_a, &ring.full[s], stage, kt * kBK, static_cast<int>(plane * m + tm * kBM));
      tensor_load(map_b, &ring.full[s], stage + kTileA, kt * kBK, static_cast<int>(plane * n + tn * kBN));
    }
  }
}

// One consumer warpgroup's 64 rows of one tile: its K steps in order from zero accumulators, each
// stage handed back once its instructions are done; `it` counts the ring's fills.
template <typename Op>
__device__ void consume_tile(const Ring& ring, int half, int k_steps, int& it, uint32_t (&d)[128]) {
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0;
  const int k_tiles = (k_steps + 3) / 4;
  for (int kt = 0; kt < k_tiles; ++kt, ++it) {
    const int s = it % kStages, steps = min(k_steps - kt * (kBK / 32), kBK / 32);
    barrier_wait(&ring.full[s], (it / kStages) & 1);
    const uint8_t* stage = ring.stages + size_t(s) * kStageBytes;
    const uint64_t da = swizzled_descriptor(stage + half * 64 * kBK), db = swizzled_descriptor(stage + kTileA);
    if (steps == 4) issue<Op, 4>(d, da, db);  // the tile of the last K steps may hold fewer
    else if (steps == 3) issue<Op, 3>(d, da, db);
    else if (steps == 2) issue<Op, 2>(d, da, db);
    else issue<Op, 1>(d, da, db);
    OZREF_WGMMA_SYNC("wgmma.wait_group.sync.aligned 1;");
    if (kt > 0 && threadIdx.x % 128 == 0) barrier_arrive(&ring.empty[(it - 1) % kStages]);
  }
  OZREF_WGMMA_SYNC("wgmma.wait_group.sync.aligned 0;");
  if (threadIdx.x % 128 == 0) barrier_arrive(&ring.empty[(it - 1) % kStages]);
}

template <typename Op, typename Store>
__global__ void __launch_bounds__(kThreads, 1)
    wgmma_kernel(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, size_t m, size_t n, unsigned planes,
                 int k_steps, const __grid_constant__ Store store) {
#ifndef OZREF_WGMMA_ENABLED
  __trap();
#endif
  extern __shared__ uint8_t shared_raw[];
  __shared__ __align__(8) uint64_t full[kStages], empty[kStages];
  const Ring ring{reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(shared_raw) + 1023) & ~uintptr_t{1023}), full, empty,
                  static_cast<unsigned>((m + kBM - 1) / kBM), static_cast<unsigned>((n + kBN - 1) / kBN), planes};
  const int warpgroup = threadIdx.x / 128;
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) barrier_init(&full[s], 1), barrier_init(&empty[s], 2);
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
  }
  __syncthreads();
  if (warpgroup == 0) {  // the loads, running ahead into the next tile while the consumers store
#ifdef OZREF_WGMMA_ENABLED
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
#endif
    if (threadIdx.x == 0) produce(&map_a, &map_b, ring, (k_steps + 3) / 4, static_cast<unsigned>(m), static_cast<unsigned>(n));
    return;
  }
#ifdef OZREF_WGMMA_ENABLED
  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
#endif
  const int half = warpgroup - 1;  // rows 64 half .. 64 half + 63 of each tile
  uint32_t d[128];
  int it = 0;
  for (unsigned tile = blockIdx.x; tile < ring.tiles(); tile += gridDim.x) {
    unsigned plane, tm, tn;
    ring.place(tile, plane, tm, tn);
    consume_tile<Op>(ring, half, k_steps, it, d);
    store_outputs(d, size_t(tm) * kBM + half * 64, size_t(tn) * kBN, m, n, store.plane(plane, m * n));
  }
}

// Rows of `k` bytes copied into rows of `stride` bytes (zeros after k).
__global__ void pad_rows_kernel(const uint8_t* x, size_t rows, size_t k, size_t stride, uint8_t* out) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= rows * stride) return;
  const size_t r = v / stride, c = v % stride;
  out[v] = c < k ? x[r * k + c] : 0;
}

PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    OZREF_CUDA(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess || !fn) throw std::runtime_error("wgmma GEMM: the driver has no cuTensorMapEncodeTiled");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
  }();
  return encode;
}

// rows x k bytes (rows `stride` bytes apart) in boxes of box_rows x 128 bytes, 128-byte swizzle,
// zeros outside.
CUtensorMap tensor_map(const uint8_t* x, size_t rows, size_t k, size_t stride, unsigned box_rows) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {k, rows}, strides[1] = {stride};
  const cuuint32_t box[2] = {kBK, box_rows}, element_strides[2] = {1, 1};
  const CUresult r = tensor_map_encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, const_cast<uint8_t*>(x), dims, strides, box,
                                          element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                          CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) throw std::runtime_error("wgmma GEMM: cuTensorMapEncodeTiled failed with " + std::to_string(int(r)));
  return map;
}

// An operand the copy engine can address: itself, or a padded copy (rows of a multiple of 16 bytes).
struct Addressable {
  const uint8_t* data;
  size_t stride;
  DeviceArray<uint8_t> copy;
  Addressable(const uint8_t* x, size_t rows, size_t k) : data(x), stride(k) {
    if (k % 16 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0) return;
    stride = (k + 15) / 16 * 16;
    copy = DeviceArray<uint8_t>(rows * stride);
    pad_rows_kernel<<<blocks_for(rows * stride), 256>>>(x, rows, k, stride, copy.get());
    OZREF_CUDA_LAUNCHED();
    data = copy.get();
  }
};

// One block per multiprocessor (each holds one: 193 KB of shared memory).
size_t multiprocessors() {
  static const size_t count = [] {
    int device = 0, sms = 0;
    OZREF_CUDA(cudaGetDevice(&device));
    OZREF_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return static_cast<size_t>(sms);
  }();
  return count;
}

// `planes` GEMMs of one shape in one launch: A's planes stacked (planes m x k), B's (planes n x k).
template <typename Op, typename Store>
void launch(size_t planes, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, const Store& store) {
  if (m == 0 || n == 0 || planes == 0) return;
  if (k == 0) throw std::runtime_error("wgmma GEMM: K = 0");
  if (planes * m > (size_t{1} << 31) || planes * n > (size_t{1} << 31) || k > (size_t{1} << 31))
    throw std::runtime_error("wgmma GEMM: a dimension (of the stacked planes) beyond 2^31");
  const Addressable pa(a, planes * m, k), pb(b_columns, planes * n, k);
  const CUtensorMap map_a = tensor_map(pa.data, planes * m, k, pa.stride, kBM), map_b = tensor_map(pb.data, planes * n, k, pb.stride, kBN);
  static const bool configured = [] {
    OZREF_CUDA(cudaFuncSetAttribute(wgmma_kernel<Op, Store>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSharedBytes)));
    return true;
  }();
  (void)configured;
  const size_t tiles = planes * ((m + kBM - 1) / kBM) * ((n + kBN - 1) / kBN);
  if (tiles >= (size_t{1} << 32)) throw std::runtime_error("wgmma GEMM: more than 2^32 tiles");
  const unsigned blocks = static_cast<unsigned>(std::min<size_t>(tiles, multiprocessors()));
  wgmma_kernel<Op, Store><<<blocks, kThreads, kSharedBytes>>>(map_a, map_b, m, n, static_cast<unsigned>(planes), static_cast<int>((k + 31) / 32), store);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace

void wgmma_gemm(WgmmaOp op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c) {
  const StoreRaw store{c};
  switch (op) {
    case WgmmaOp::S8S8: return launch<wgmma::S8S8>(1, m, n, k, a, b_columns, store);
    case WgmmaOp::S8U8: return launch<wgmma::S8U8>(1, m, n, k, a, b_columns, store);
    case WgmmaOp::U8S8: return launch<wgmma::U8S8>(1, m, n, k, a, b_columns, store);
    case WgmmaOp::U8U8: return launch<wgmma::U8U8>(1, m, n, k, a, b_columns, store);
    case WgmmaOp::E4M3: return launch<wgmma::E4M3>(1, m, n, k, a, b_columns, store);
    case WgmmaOp::E5M2: return launch<wgmma::E5M2>(1, m, n, k, a, b_columns, store);
  }
}

void wgmma_gemm_reduced(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, const std::vector<int64_t>& plane_moduli,
                        int16_t* residues) {
  if (plane_moduli.size() > kMaxReducedPlanes)
    throw std::logic_error("wgmma GEMM: " + std::to_string(plane_moduli.size()) + " planes, more than the " + std::to_string(kMaxReducedPlanes) + " of one launch");
  StoreResidues store{residues, {}, {}};
  for (size_t p = 0; p < plane_moduli.size(); ++p) {
    if (!ozaki2::barrett32_applies(plane_moduli[p])) throw std::logic_error("wgmma GEMM: the fused reduction takes moduli in [3, 2^15)");
    store.modulus[p] = static_cast<int32_t>(plane_moduli[p]);
    store.factor[p] = static_cast<int32_t>(ozaki2::barrett_factor(plane_moduli[p]));
  }
  launch<wgmma::S8S8>(plane_moduli.size(), m, n, k, reinterpret_cast<const uint8_t*>(a), reinterpret_cast<const uint8_t*>(b_columns), store);
}

}  // namespace ozref::device
