// split (fp8, fp4): each balanced residue of modulus t (N x P x count, by rows for A, by columns
// for B) as its limbs, into rows (limb, plane) of the modulus's batch: rows limb_base[t] .. of
// the output. fp4's two-limb tables are built here too, one pair per residue class.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/limbs.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

template <typename R>
__global__ void split_kernel(const R* residues, size_t planes, size_t count, LimbProduct p, const int8_t* tables, int8_t* limbs) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= planes * count) return;
  const size_t plane = v / count, e = v % count;
  int8_t l[kMaxLimbs];
  const int used = split_limbs(p, residues[v], l, tables);
  for (int q = 0; q < used; ++q) limbs[(q * planes + plane) * count + e] = l[q];
}

template <typename R>
void split_side(const Shape& s, const R* residues, size_t count, const std::vector<LimbProduct>& products, const std::vector<size_t>& limb_base,
                const int8_t* tables, int8_t* limbs) {
  for (size_t t = 0; t < s.N; ++t) {
    split_kernel<<<blocks_for(s.P * count), 256>>>(residues + t * s.P * count, s.P, count, products[t], tables,
                                                   limbs + limb_base[t] * s.P * count);
    OZREF_CUDA_LAUNCHED();
  }
}

__global__ void e4m3_kernel(const int8_t* limbs, size_t count, uint8_t* e4m3) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v < count) e4m3[v] = e4m3_of_small_integer(limbs[v]);
}

__global__ void e2m1_kernel(const int8_t* limbs, size_t count, uint8_t* e2m1) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v < count) e2m1[v] = e2m1_container_of_limb(limbs[v]);
}

// Class r of a modulus whose table starts at pair `first`: a class without a form is left 0, 0
// and flagged, which the host turns into an error.
__global__ void two_limb_kernel(int64_t modulus, int32_t first, int8_t* tables, int* missing) {
  const int64_t r = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  if (r >= modulus) return;
  int8_t l[2] = {0, 0};
  if (!two_limbs(modulus, r, l)) atomicAdd(missing, 1);
  tables[2 * (first + r)] = l[0];
  tables[2 * (first + r) + 1] = l[1];
}

}  // namespace

void to_e4m3(const int8_t* limbs, size_t count, uint8_t* e4m3) {
  e4m3_kernel<<<blocks_for(count), 256>>>(limbs, count, e4m3);
  OZREF_CUDA_LAUNCHED();
}

void to_e2m1(const int8_t* limbs, size_t count, uint8_t* e2m1) {
  e2m1_kernel<<<blocks_for(count), 256>>>(limbs, count, e2m1);
  OZREF_CUDA_LAUNCHED();
}

void two_limb_tables(const std::vector<LimbProduct>& products, int8_t* tables) {
  DeviceArray<int> missing(1);
  OZREF_CUDA(cudaMemset(missing.get(), 0, sizeof(int)));
  for (const LimbProduct& p : products) {
    two_limb_kernel<<<blocks_for(size_t(p.modulus)), 256>>>(p.modulus, p.table, tables, missing.get());
    OZREF_CUDA_LAUNCHED();
  }
  int count = 0;
  missing.download(&count);
  if (count != 0) throw std::logic_error("split twin: " + std::to_string(count) + " residue classes have no two-limb form");
}

void split(const Shape& s, const int16_t* ra, const int16_t* rb, const std::vector<LimbProduct>& products, const std::vector<size_t>& limb_base,
           int8_t* la, int8_t* lb) {
  split_side(s, ra, s.m * s.k, products, limb_base, nullptr, la);
  split_side(s, rb, s.n * s.k, products, limb_base, nullptr, lb);
}

void split(const Shape& s, const int8_t* ra, const int8_t* rb, const std::vector<LimbProduct>& products, const std::vector<size_t>& limb_base,
           const int8_t* two_limb_tables, int8_t* la, int8_t* lb) {
  split_side(s, ra, s.m * s.k, products, limb_base, two_limb_tables, la);
  split_side(s, rb, s.n * s.k, products, limb_base, two_limb_tables, lb);
}

}  // namespace ozref::device::ozaki2
