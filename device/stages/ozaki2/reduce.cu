// reduce: each INT32 GEMM output to its balanced residue by the kernel's Barrett reduction
// (q = (x floor(2^32/m)) >> 32, one correction from either side), as reference/schemes/common/residue.hpp.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__global__ void reduce_kernel(const int32_t* c, size_t per_modulus, size_t N, const int64_t* moduli, int16_t* out) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= N * per_modulus) return;
  const int64_t m = moduli[v / per_modulus], mu = static_cast<int64_t>((uint64_t{1} << 32) / static_cast<uint64_t>(m));
  const int64_t x = c[v], q = (x * mu) >> 32;  // floor, as the signed __mulhi of a kernel
  int64_t r = x - q * m;
  r += r < 0 ? m : 0;
  r -= r >= m ? m : 0;
  out[v] = static_cast<int16_t>(balance(r, m));
}

}  // namespace

void reduce(const Shape& s, size_t products, const int32_t* c, const int64_t* moduli, int16_t* r) {
  const size_t per_modulus = products * s.m * s.n;
  reduce_kernel<<<blocks_for(s.N * per_modulus), 256>>>(c, per_modulus, s.N, moduli, r);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
