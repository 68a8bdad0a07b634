// unscale: C = C' 2^(unit - s_i - t_j) correctly rounded from the integer's words (arith.cuh's
// unscale_element, as the CPU's nearest_double), or ldexp(sum, -s_i - t_j) for the FP64 sum.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki1/twins.hpp"

namespace ozref::device::ozaki1 {
namespace {

template <int words>
__global__ void exact_kernel(const int64_t* c, size_t m, size_t n, int unit, const int32_t* row, const int32_t* col, double* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= m * n) return;
  out[x] = ozaki2::unscale_element_of<words>(c + x * words, 0, 0, unit - row[x / n] - col[x % n]);
}

__global__ void fp64_kernel(const double* sum, size_t m, size_t n, const int32_t* row, const int32_t* col, double* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x < m * n) out[x] = ldexp(sum[x], -row[x / n] - col[x % n]);
}

}  // namespace

void unscale_exact(const Shape& s, const int64_t* c, size_t words, int unit, const int32_t* row_shift, const int32_t* col_shift, double* out) {
  ozaki2::with_words(words, [&](auto w) { exact_kernel<w><<<blocks_for(s.m * s.n, 128), 128>>>(c, s.m, s.n, unit, row_shift, col_shift, out); });
  OZREF_CUDA_LAUNCHED();
}

void unscale_fp64(const Shape& s, const double* sum, const int32_t* row_shift, const int32_t* col_shift, double* out) {
  fp64_kernel<<<blocks_for(s.m * s.n), 256>>>(sum, s.m, s.n, row_shift, col_shift, out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki1
