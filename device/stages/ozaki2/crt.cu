// crt: C' in (-P/2, P/2] from its residues. exact (and garner, the same integer): crt_element of
// arith.cuh, the unique integer, as the CPU's. dd: GEMMul8's double-double in the CPU's order of
// operations (reference/schemes/common/crt.cpp).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

template <int words>
__global__ void exact_kernel(const int16_t* residues, size_t S, size_t mn, size_t N, const int32_t* weight_limbs, const double* weights_fp64,
                             const uint64_t* product, double inv_p, int64_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= S * mn) return;
  const size_t o = x / mn, v = x % mn;
  crt_element_of<words>(residues + o * mn + v, S * mn, N, weight_limbs, weights_fp64, product, inv_p, out + x * words);
}

__global__ void dd_kernel(const int16_t* residues, size_t S, size_t mn, size_t N, const double* w_hi, const double* w_lo, double p_hi,
                          double p_lo, double inv_p, double* hi, double* lo) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= S * mn) return;
  const size_t o = x / mn, v = x % mn;
  double acc = 0, acc_lo = 0;
  for (size_t t = 0; t < N; ++t) {
    const double r = residues[(t * S + o) * mn + v];
    acc = fma(w_hi[t], r, acc);
    acc_lo = fma(w_lo[t], r, acc_lo);
  }
  const double quot = rint((acc + acc_lo) * inv_p);
  const double top = fma(-p_hi, quot, acc), rest = fma(-p_lo, quot, acc_lo);
  hi[x] = top + rest;
  lo[x] = rest - (hi[x] - top);
}

}  // namespace

void crt_exact(const Shape& s, const int16_t* residues, const CrtTables& t, int64_t* c) {
  if (t.words > kMaxWords) throw std::runtime_error("crt twin: P needs more than " + std::to_string(kMaxWords) + " words");
  const DeviceArray<int32_t> limbs(t.weight_limbs.data(), t.weight_limbs.size());
  const DeviceArray<uint64_t> product(t.product.data(), t.product.size());
  const DeviceArray<double> weights_fp64(t.weights_fp64.data(), t.weights_fp64.size());
  with_words(t.words, [&](auto words) {
    exact_kernel<words><<<blocks_for(s.S * s.m * s.n, 128), 128>>>(residues, s.S, s.m * s.n, s.N, limbs.get(), weights_fp64.get(), product.get(),
                                                                  t.inv_p, c);
  });
  OZREF_CUDA_LAUNCHED();
}

void crt_dd(const Shape& s, const int16_t* residues, const CrtTables& t, double* hi, double* lo) {
  const DeviceArray<double> w_hi(t.w_hi.data(), t.w_hi.size()), w_lo(t.w_lo.data(), t.w_lo.size());
  dd_kernel<<<blocks_for(s.S * s.m * s.n), 256>>>(residues, s.S, s.m * s.n, s.N, w_hi.get(), w_lo.get(), t.p_hi, t.p_lo, t.inv_p, hi, lo);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
