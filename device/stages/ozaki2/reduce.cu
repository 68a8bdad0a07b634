// reduce: each INT32 GEMM output to its balanced residue by the kernel's Barrett reduction
// (arith.cuh's barrett_residue, as reference/schemes/common/residue.hpp).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

constexpr int kPerThread = 8;

// Block row y: modulus y's outputs, the Barrett factor computed once per block.
__global__ void reduce_kernel(const int32_t* c, size_t per_modulus, const int64_t* moduli, int16_t* out) {
  __shared__ int64_t mu;
  const int64_t m = moduli[blockIdx.y];
  if (threadIdx.x == 0) mu = barrett_factor(m);
  __syncthreads();
  const size_t base = size_t(blockIdx.y) * per_modulus, v0 = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * kPerThread;
  const bool narrow = barrett32_applies(m);
  for (size_t v = v0; v < v0 + kPerThread && v < per_modulus; ++v)
    out[base + v] = static_cast<int16_t>(narrow ? barrett_residue32(c[base + v], static_cast<int32_t>(m), static_cast<int32_t>(mu))
                                               : barrett_residue(c[base + v], m, mu));
}

}  // namespace

void reduce(const Shape& s, size_t products, const int32_t* c, const int64_t* moduli, int16_t* r) {
  const size_t per_modulus = products * s.m * s.n;
  const dim3 grid(blocks_for((per_modulus + kPerThread - 1) / kPerThread), static_cast<unsigned>(s.N));
  reduce_kernel<<<grid, 256>>>(c, per_modulus, moduli, r);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
