// scale: each row's and column's shift from its largest magnitude (slicing.cuh's slice_shift).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki1/twins.hpp"

namespace ozref::device::ozaki1 {
namespace {

// Rows: one warp each, its lanes over strided elements (a maximum in any order is the same).
__global__ void rows_kernel(const double* a, size_t m, size_t k, int bits, int32_t* row) {
  const size_t i = blockIdx.x * size_t(blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (i >= m) return;
  double mx = 0;
  for (size_t kk = lane; kk < k; kk += 32) mx = fmax(mx, fabs(a[i * k + kk]));
  for (int d = 16; d > 0; d /= 2) mx = fmax(mx, __shfl_down_sync(0xFFFFFFFFu, mx, d));
  if (lane == 0) row[i] = slice_shift(bits, mx);
}

// Columns: one thread each, reading along B's rows.
__global__ void columns_kernel(const double* b, size_t k, size_t n, int bits, int32_t* col) {
  const size_t j = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  double mx = 0;
  for (size_t kk = 0; kk < k; ++kk) mx = fmax(mx, fabs(b[kk * n + j]));
  col[j] = slice_shift(bits, mx);
}

}  // namespace

void scale(const Shape& s, int bits, const double* a, const double* b, int32_t* row_shift, int32_t* col_shift) {
  rows_kernel<<<blocks_for(s.m * 32), 256>>>(a, s.m, s.k, bits, row_shift);
  OZREF_CUDA_LAUNCHED();
  columns_kernel<<<blocks_for(s.n), 256>>>(b, s.k, s.n, bits, col_shift);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki1
