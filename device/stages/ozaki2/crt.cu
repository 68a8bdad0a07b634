// crt: C' in (-P/2, P/2] from its residues. exact (and garner, the same integer): crt_element.cuh,
// the unique integer, as the CPU's. dd: GEMMul8's double-double in the CPU's order of
// operations (reference/schemes/common/crt.cpp).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/crt_element.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

// E consecutive elements of one part per thread (E divides m n).
template <int words, int E>
__global__ void exact_kernel(const int16_t* residues, size_t S, size_t mn, const __grid_constant__ CrtConstants<words> k, int64_t* out) {
  const size_t x = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * E;
  if (x >= S * mn) return;
  const size_t o = index_quotient(x, mn), v = x - o * mn;
  uint64_t c[E][words];
  crt_elements_of<words, E>(residues + o * mn + v, S * mn, k, c);
  for (int e = 0; e < E; ++e)
    for (int i = 0; i < words; ++i) out[(x + e) * words + i] = static_cast<int64_t>(c[e][i]);
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
  const size_t mn = s.m * s.n, count = s.S * mn;
  with_words(t.words, [&](auto words) {
    const CrtConstants<words> k = crt_constants<words>(t);
    if (mn % 4 == 0) exact_kernel<words, 4><<<blocks_for(count / 4, 256), 256>>>(residues, s.S, mn, k, c);
    else exact_kernel<words, 1><<<blocks_for(count, 256), 256>>>(residues, s.S, mn, k, c);
  });
  OZREF_CUDA_LAUNCHED();
}

void crt_dd(const Shape& s, const int16_t* residues, const CrtTables& t, double* hi, double* lo) {
  const DeviceArray<double> w_hi(t.w_hi.data(), t.w_hi.size()), w_lo(t.w_lo.data(), t.w_lo.size());
  dd_kernel<<<blocks_for(s.S * s.m * s.n), 256>>>(residues, s.S, s.m * s.n, s.N, w_hi.get(), w_lo.get(), t.p_hi, t.p_lo, t.inv_p, hi, lo);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
