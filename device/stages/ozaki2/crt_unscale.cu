// The crt and unscale stages in one kernel, for the emulated GEMM (bench/bench_gpu_pipeline.cu):
// each thread runs one of crt_unscale.cuh's bodies on E consecutive elements of one row (E = 4
// where 4 divides n, else 1); for a complex run the complex stage's combination (Gaussian or 3M)
// too, as each plane product is read. The lockstep runs the stages apart, so that each is compared
// on its own. A complex run's blocks alternate between the parts (block b: part b mod 2 of group
// b / 2), so that the Im part reads the plane products the Re part's block has just brought into
// L2, rather than reading them from memory a second time.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/crt_unscale.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

template <int words, int E>
__global__ void crt_unscale_kernel(const int16_t* residues, size_t S, size_t m, size_t n, const __grid_constant__ CrtConstants<words> k,
                                   const int32_t* row, const int32_t* col, double* out) {
  const size_t x = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * E;
  if (x < S * m * n) crt_unscale_elements<words, E>(x, residues, S, m, n, k, row, col, out);
}

// The first of the thread's E elements of a complex result (2 x m x n), blocks alternating
// between the parts; false past the part's end.
template <int E>
__device__ inline bool complex_element(size_t mn, size_t& x) {
  const size_t part = blockIdx.x % 2, within = (blockIdx.x / 2 * size_t(blockDim.x) + threadIdx.x) * E;
  x = part * mn + within;
  return within < mn;
}

template <int words, int E>
__global__ void gaussian_crt_unscale_kernel(const int16_t* products, size_t m, size_t n, const __grid_constant__ CrtConstants<words> k,
                                            const __grid_constant__ GaussianTable g, const int32_t* row, const int32_t* col, double* out) {
  size_t x;
  if (complex_element<E>(m * n, x)) gaussian_crt_unscale_elements<words, E>(x, products, m, n, k, g, row, col, out);
}

template <int words, int E>
__global__ void three_m_crt_unscale_kernel(const int16_t* products, size_t m, size_t n, const __grid_constant__ CrtConstants<words> k,
                                           const __grid_constant__ ModuliTable moduli, const int32_t* row, const int32_t* col, double* out) {
  size_t x;
  if (complex_element<E>(m * n, x)) three_m_crt_unscale_elements<words, E>(x, products, m, n, k, moduli, row, col, out);
}

// launch(words, E, blocks) for `parts` parts of `count` elements each (E = 4 where 4 divides n),
// each part its own blocks.
template <typename Launch>
void launch_groups(const Shape& s, size_t parts, size_t count, const CrtTables& t, Launch launch) {
  with_words(t.words, [&](auto words) {
    if (s.n % 4 == 0) launch(words, std::integral_constant<int, 4>{}, static_cast<unsigned>(parts * blocks_for(count / 4, 256)));
    else launch(words, std::integral_constant<int, 1>{}, static_cast<unsigned>(parts * blocks_for(count, 256)));
  });
  OZREF_CUDA_LAUNCHED();
}

}  // namespace

void crt_unscale_exact(const Shape& s, const int16_t* residues, const CrtTables& t, const int32_t* row_shift, const int32_t* col_shift,
                       double* out) {
  launch_groups(s, 1, s.S * s.m * s.n, t, [&](auto words, auto E, unsigned blocks) {
    crt_unscale_kernel<words, E><<<blocks, 256>>>(residues, s.S, s.m, s.n, crt_constants<words>(t), row_shift, col_shift, out);
  });
}

void gaussian_crt_unscale_exact(const Shape& s, const int16_t* products, const std::vector<int64_t>& moduli, const CrtTables& t,
                                const int32_t* row_shift, const int32_t* col_shift, double* out) {
  const GaussianTable g = gaussian_table(moduli);
  launch_groups(s, 2, s.m * s.n, t, [&](auto words, auto E, unsigned blocks) {
    gaussian_crt_unscale_kernel<words, E><<<blocks, 256>>>(products, s.m, s.n, crt_constants<words>(t), g, row_shift, col_shift, out);
  });
}

void three_m_crt_unscale_exact(const Shape& s, const int16_t* products, const std::vector<int64_t>& moduli, const CrtTables& t,
                               const int32_t* row_shift, const int32_t* col_shift, double* out) {
  const ModuliTable table = moduli_table(moduli);
  launch_groups(s, 2, s.m * s.n, t, [&](auto words, auto E, unsigned blocks) {
    three_m_crt_unscale_kernel<words, E><<<blocks, 256>>>(products, s.m, s.n, crt_constants<words>(t), table, row_shift, col_shift, out);
  });
}

}  // namespace ozref::device::ozaki2
