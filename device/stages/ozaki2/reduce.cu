// reduce: each INT32 GEMM output to its balanced residue by the kernel's Barrett reduction
// (arith.cuh's barrett_residue, as reference/schemes/common/residue.hpp).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__global__ void reduce_kernel(const int32_t* c, size_t per_modulus, size_t N, const int64_t* moduli, int16_t* out) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= N * per_modulus) return;
  out[v] = static_cast<int16_t>(barrett_residue(c[v], moduli[v / per_modulus]));
}

}  // namespace

void reduce(const Shape& s, size_t products, const int32_t* c, const int64_t* moduli, int16_t* r) {
  const size_t per_modulus = products * s.m * s.n;
  reduce_kernel<<<blocks_for(s.N * per_modulus), 256>>>(c, per_modulus, s.N, moduli, r);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
