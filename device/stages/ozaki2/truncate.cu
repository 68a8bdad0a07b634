// truncate: A' = trunc(A 2^s_i), B' = trunc(2^t_j B), every part, as reference/schemes/ozaki2/truncate.cpp
// (x 2^s with a normal power of two, else ldexp: the same value).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__global__ void truncate_kernel(const double* x, size_t parts, size_t rows, size_t cols, bool by_row, const int32_t* shift, double* out) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= parts * rows * cols) return;
  const size_t e = v - index_quotient(v, rows * cols) * rows * cols, line = index_quotient(e, cols);
  out[v] = scaled_integer(x[v], shift[by_row ? line : e - line * cols]);
}

}  // namespace

void truncate(const Shape& s, const double* a, const double* b, const int32_t* row_shift, const int32_t* col_shift, double* ta, double* tb) {
  truncate_kernel<<<blocks_for(s.S * s.m * s.k), 256>>>(a, s.S, s.m, s.k, true, row_shift, ta);
  OZREF_CUDA_LAUNCHED();
  truncate_kernel<<<blocks_for(s.S * s.k * s.n), 256>>>(b, s.S, s.k, s.n, false, col_shift, tb);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
