// slices: p slices of each scaled element, most significant first (slicing.cuh), A's by rows
// (p x m x k) and B's as B is held (p x k x n).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki1/twins.hpp"

namespace ozref::device::ozaki1 {
namespace {

__global__ void slices_kernel(const double* x, size_t rows, size_t cols, bool shift_by_row, const int32_t* shift, Slicing v, int p, int w,
                              int8_t* out) {
  const size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x, count = rows * cols;
  if (e >= count) return;
  slice_element(v, p, w, x[e], shift[shift_by_row ? e / cols : e % cols], out + e, count);
}

}  // namespace

void slices(const Shape& s, Slicing v, int w, const double* a, const double* b, const int32_t* row_shift, const int32_t* col_shift,
            int8_t* slices_a, int8_t* slices_b) {
  const int p = static_cast<int>(s.p);
  slices_kernel<<<blocks_for(s.m * s.k), 256>>>(a, s.m, s.k, true, row_shift, v, p, w, slices_a);
  OZREF_CUDA_LAUNCHED();
  slices_kernel<<<blocks_for(s.k * s.n), 256>>>(b, s.k, s.n, false, col_shift, v, p, w, slices_b);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki1
