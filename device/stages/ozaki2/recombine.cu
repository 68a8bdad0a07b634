// recombine (fp8, fp4): each plane product's balanced residue from its modulus's FP32 GEMM outputs, rows
// (modulus, plane product, term) of the gemm stage, as the weighted sum of their integers mod m.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/limbs.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__global__ void recombine_kernel(const uint32_t* c, size_t products, size_t mn, LimbProduct p, int16_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= products * mn) return;
  const size_t q = x / mn, v = x % mn;
  uint32_t outputs[kMaxTerms];
  for (int g = 0; g < p.terms; ++g) outputs[g] = c[(q * p.terms + g) * mn + v];
  out[x] = static_cast<int16_t>(recombine_outputs(p, outputs));
}

}  // namespace

void recombine(const Shape& s, size_t products, const uint32_t* c, const std::vector<LimbProduct>& mods, const std::vector<size_t>& term_base,
               int16_t* r) {
  const size_t mn = s.m * s.n;
  for (size_t t = 0; t < s.N; ++t) {
    recombine_kernel<<<blocks_for(products * mn), 256>>>(c + term_base[t] * products * mn, products, mn, mods[t], r + t * products * mn);
    OZREF_CUDA_LAUNCHED();
  }
}

}  // namespace ozref::device::ozaki2
