// The crt and unscale stages in one kernel, for the emulated GEMM (bench/bench_gpu_pipeline.cu):
// each element's CRT (crt_element.cuh) rounded at once (unscale_element), the wide C' never written;
// for a Gaussian complex run the complex stage's combination too, as each residue is read.
// The lockstep runs the stages apart, so that each is compared on its own.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/crt_element.cuh"
#include "stages/ozaki2/gaussian.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

// E consecutive elements of one row per thread (E divides n).
template <int words, int E>
__global__ void crt_unscale_kernel(const int16_t* residues, size_t S, size_t m, size_t n, const __grid_constant__ CrtConstants<words> k,
                                   const int32_t* row, const int32_t* col, double* out) {
  const size_t x = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * E, mn = m * n;
  if (x >= S * mn) return;
  const size_t o = index_quotient(x, mn), v = x - o * mn, i = index_quotient(v, n), j = v - i * n;
  uint64_t c[E][words];
  crt_elements_of<words, E>(residues + o * mn + v, S * mn, k, c);
  for (int e = 0; e < E; ++e) out[x + e] = unscale_element_of<words>(reinterpret_cast<const int64_t*>(c[e]), 0, 0, -(row[i] + col[j + e]));
}

// Part `part` (0: Re, 1: Im) of E elements modulo modulus t from the plane products Z and W.
template <int E>
struct GaussianResidues {
  const int16_t* z;  // modulus 0's Z of the elements; modulus t's Z at z[2 t mn], its W at z[(2 t + 1) mn]
  size_t mn;
  int part;
  const GaussianTable* g;
  __device__ __forceinline__ void operator()(int t, int32_t (&rt)[E]) const {
    int32_t zt[E], wt[E];
    load_residues<E>(z + 2 * static_cast<size_t>(t) * mn, zt);
    load_residues<E>(z + (2 * static_cast<size_t>(t) + 1) * mn, wt);
    for (int e = 0; e < E; ++e) rt[e] = part == 0 ? gaussian_real(zt[e], wt[e], g->m[t], g->c[t]) : gaussian_imag(zt[e], wt[e], g->m[t], g->c[t]);
  }
};

template <int words, int E>
__global__ void gaussian_crt_unscale_kernel(const int16_t* products, size_t m, size_t n, const __grid_constant__ CrtConstants<words> k,
                                            const __grid_constant__ GaussianTable g, const int32_t* row, const int32_t* col, double* out) {
  const size_t x = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * E, mn = m * n;
  if (x >= 2 * mn) return;
  const size_t o = index_quotient(x, mn), v = x - o * mn, i = index_quotient(v, n), j = v - i * n;
  uint64_t c[E][words];
  crt_elements_from<words, E>(GaussianResidues<E>{products + v, mn, static_cast<int>(o), &g}, k, c);
  for (int e = 0; e < E; ++e) out[x + e] = unscale_element_of<words>(reinterpret_cast<const int64_t*>(c[e]), 0, 0, -(row[i] + col[j + e]));
}

GaussianTable gaussian_table(const std::vector<int64_t>& moduli) {
  const std::vector<int32_t> constants = gaussian_constants(moduli);
  GaussianTable g{};
  for (size_t t = 0; t < moduli.size(); ++t) {
    g.m[t] = static_cast<int32_t>(moduli[t]);
    for (size_t q = 0; q < kGaussianConstants; ++q) g.c[t][q] = constants[t * kGaussianConstants + q];
  }
  return g;
}

}  // namespace

void gaussian_crt_unscale_exact(const Shape& s, const int16_t* products, const std::vector<int64_t>& moduli, const CrtTables& t,
                                const int32_t* row_shift, const int32_t* col_shift, double* out) {
  const size_t count = 2 * s.m * s.n;
  const GaussianTable g = gaussian_table(moduli);
  with_words(t.words, [&](auto words) {
    const CrtConstants<words> k = crt_constants<words>(t);
    if (s.n % 4 == 0) gaussian_crt_unscale_kernel<words, 4><<<blocks_for(count / 4, 256), 256>>>(products, s.m, s.n, k, g, row_shift, col_shift, out);
    else gaussian_crt_unscale_kernel<words, 1><<<blocks_for(count, 256), 256>>>(products, s.m, s.n, k, g, row_shift, col_shift, out);
  });
  OZREF_CUDA_LAUNCHED();
}

void crt_unscale_exact(const Shape& s, const int16_t* residues, const CrtTables& t, const int32_t* row_shift, const int32_t* col_shift,
                       double* out) {
  const size_t count = s.S * s.m * s.n;
  with_words(t.words, [&](auto words) {
    const CrtConstants<words> k = crt_constants<words>(t);
    if (s.n % 4 == 0) crt_unscale_kernel<words, 4><<<blocks_for(count / 4, 256), 256>>>(residues, s.S, s.m, s.n, k, row_shift, col_shift, out);
    else crt_unscale_kernel<words, 1><<<blocks_for(count, 256), 256>>>(residues, s.S, s.m, s.n, k, row_shift, col_shift, out);
  });
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
