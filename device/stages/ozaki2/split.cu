// split (fp8): each balanced residue of modulus t (N x P x count, by rows for A, by columns for B)
// as its limbs, into rows (limb, plane) of the modulus's batch: rows limb_base[t] .. of the output.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/limbs.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__global__ void split_kernel(const int16_t* residues, size_t planes, size_t count, LimbProduct p, int8_t* limbs) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= planes * count) return;
  const size_t plane = v / count, e = v % count;
  int8_t l[kMaxLimbs];
  const int used = split_limbs(p, residues[v], l);
  for (int q = 0; q < used; ++q) limbs[(q * planes + plane) * count + e] = l[q];
}

void split_side(const Shape& s, const int16_t* residues, size_t count, const std::vector<LimbProduct>& products,
                const std::vector<size_t>& limb_base, int8_t* limbs) {
  for (size_t t = 0; t < s.N; ++t) {
    split_kernel<<<blocks_for(s.P * count), 256>>>(residues + t * s.P * count, s.P, count, products[t], limbs + limb_base[t] * s.P * count);
    OZREF_CUDA_LAUNCHED();
  }
}

__global__ void e4m3_kernel(const int8_t* limbs, size_t count, uint8_t* e4m3) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v < count) e4m3[v] = e4m3_of_small_integer(limbs[v]);
}

}  // namespace

void to_e4m3(const int8_t* limbs, size_t count, uint8_t* e4m3) {
  e4m3_kernel<<<blocks_for(count), 256>>>(limbs, count, e4m3);
  OZREF_CUDA_LAUNCHED();
}

void split(const Shape& s, const int16_t* ra, const int16_t* rb, const std::vector<LimbProduct>& products, const std::vector<size_t>& limb_base,
           int8_t* la, int8_t* lb) {
  split_side(s, ra, s.m * s.k, products, limb_base, la);
  split_side(s, rb, s.n * s.k, products, limb_base, lb);
}

}  // namespace ozref::device::ozaki2
