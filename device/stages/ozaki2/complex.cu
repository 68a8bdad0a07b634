// complex: the 3M combination Re = T1 - T2, Im = T3 - T1 - T2 modulo each modulus, balanced.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__global__ void combine_kernel(const int16_t* products, size_t mn, size_t N, const int64_t* moduli, int16_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= N * mn) return;
  const size_t t = x / mn, v = x % mn;
  const int64_t m = moduli[t];
  const int64_t t1 = products[(t * 3) * mn + v], t2 = products[(t * 3 + 1) * mn + v], t3 = products[(t * 3 + 2) * mn + v];
  out[(t * 2) * mn + v] = static_cast<int16_t>(into_balanced_range(t1 - t2, m));  // balanced inputs: |T1 - T2| <= m
  out[(t * 2 + 1) * mn + v] = static_cast<int16_t>(into_balanced_range(t3 - t1 - t2, m));
}

}  // namespace

void combine_3m(const Shape& s, const int16_t* products, const int64_t* moduli, int16_t* out) {
  combine_kernel<<<blocks_for(s.N * s.m * s.n), 256>>>(products, s.m * s.n, s.N, moduli, out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
