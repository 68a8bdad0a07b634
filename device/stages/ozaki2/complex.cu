// complex: Re C' and Im C' modulo each modulus, balanced, from the plane products: 3M's
// Re = T1 - T2, Im = T3 - T1 - T2, or the Gaussian Re = (Z + W) / 2, Im = (W - Z) iota / 2.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/gaussian.cuh"
#include "stages/ozaki2/three_m.cuh"

namespace ozref::device::ozaki2 {
namespace {

__global__ void combine_kernel(const int16_t* products, size_t mn, size_t N, const int64_t* moduli, int16_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= N * mn) return;
  const size_t t = index_quotient(x, mn), v = x - t * mn;
  const int32_t m = static_cast<int32_t>(moduli[t]);
  const int32_t t1 = products[(t * 3) * mn + v], t2 = products[(t * 3 + 1) * mn + v], t3 = products[(t * 3 + 2) * mn + v];
  out[(t * 2) * mn + v] = static_cast<int16_t>(three_m_real(t1, t2, m));
  out[(t * 2 + 1) * mn + v] = static_cast<int16_t>(three_m_imag(t1, t2, t3, m));
}

__global__ void gaussian_kernel(const int16_t* products, size_t mn, size_t N, const int64_t* moduli, const int32_t* gaussian, int16_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= N * mn) return;
  const size_t t = index_quotient(x, mn), v = x - t * mn;
  const int32_t m = static_cast<int32_t>(moduli[t]), *g = gaussian + t * kGaussianConstants;
  const int32_t z = products[(t * 2) * mn + v], w = products[(t * 2 + 1) * mn + v];
  out[(t * 2) * mn + v] = static_cast<int16_t>(gaussian_real(z, w, m, g));
  out[(t * 2 + 1) * mn + v] = static_cast<int16_t>(gaussian_imag(z, w, m, g));
}

}  // namespace

DeviceArray<int32_t> gaussian_constants_on_device(const std::vector<int64_t>& moduli) {
  const GaussianTable g = gaussian_table(moduli);
  return {&g.c[0][0], moduli.size() * kGaussianConstants};  // c's rows are contiguous: the flat layout
}

void combine_3m(const Shape& s, const int16_t* products, const int64_t* moduli, int16_t* out) {
  combine_kernel<<<blocks_for(s.N * s.m * s.n), 256>>>(products, s.m * s.n, s.N, moduli, out);
  OZREF_CUDA_LAUNCHED();
}

void combine_gaussian(const Shape& s, const int16_t* products, const int64_t* moduli, const int32_t* gaussian, int16_t* out) {
  gaussian_kernel<<<blocks_for(s.N * s.m * s.n), 256>>>(products, s.m * s.n, s.N, moduli, gaussian, out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
