// unscale: C = (C' + correction 2^correction_exponent) 2^-(s_i + t_j) rounded to the nearest FP64
// from the integer's words (unscale_element of arith.cuh: the correct rounding, as the CPU's); dd:
// ldexp(hi + lo + 0, e) in the CPU's order.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

template <int words>
__global__ void exact_kernel(const int64_t* c, size_t S, size_t m, size_t n, const int32_t* row, const int32_t* col, const int32_t* correction,
                             int correction_exponent, double* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x, mn = m * n;
  if (x >= S * mn) return;
  const size_t v = x % mn;
  const int64_t corr = correction ? int64_t{correction[v]} + correction[mn + v] : 0;
  out[x] = unscale_element_of<words>(c + x * words, corr, correction_exponent, -(row[v / n] + col[v % n]));
}

__global__ void dd_kernel(const double* hi, const double* lo, size_t S, size_t m, size_t n, const int32_t* row, const int32_t* col, double* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x, mn = m * n;
  if (x >= S * mn) return;
  const size_t v = x % mn;
  out[x] = ldexp(hi[x] + lo[x] + 0.0, -(row[v / n] + col[v % n]));
}

}  // namespace

void unscale_exact(const Shape& s, const int64_t* c, size_t words, const int32_t* row_shift, const int32_t* col_shift,
                   const int32_t* correction, int correction_exponent, double* out) {
  with_words(words, [&](auto w) {
    exact_kernel<w><<<blocks_for(s.S * s.m * s.n, 128), 128>>>(c, s.S, s.m, s.n, row_shift, col_shift, correction, correction_exponent, out);
  });
  OZREF_CUDA_LAUNCHED();
}

void unscale_dd(const Shape& s, const double* hi, const double* lo, const int32_t* row_shift, const int32_t* col_shift, double* out) {
  dd_kernel<<<blocks_for(s.S * s.m * s.n), 256>>>(hi, lo, s.S, s.m, s.n, row_shift, col_shift, out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
