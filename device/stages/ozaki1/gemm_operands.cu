// The gemm stage's operands in the layout ozref's kernels take (B by columns), and the
// concatenated slices of the fused GEMMs (one INT32 accumulator per t + u, as EmuGEMM-I).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki1/twins.hpp"

namespace ozref::device::ozaki1 {
namespace {

// 32 x 32 tiles through shared memory: reads along B's rows, writes along its columns.
__global__ void columns_kernel(const int8_t* b, size_t k, size_t n, int8_t* out) {
  __shared__ int8_t tile[32][33];
  const size_t plane = blockIdx.z, j0 = blockIdx.x * size_t(32), k0 = blockIdx.y * size_t(32);
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int r = ty; r < 32; r += 8)
    if (k0 + r < k && j0 + tx < n) tile[r][tx] = b[plane * k * n + (k0 + r) * n + j0 + tx];
  __syncthreads();
  for (int r = ty; r < 32; r += 8)
    if (j0 + r < n && k0 + tx < k) out[plane * n * k + (j0 + r) * k + k0 + tx] = tile[tx][r];
}

__global__ void concatenate_kernel(const int8_t* slices, size_t rows, size_t k, size_t d, bool reversed, int8_t* out) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x, depth = (d + 1) * k;
  if (v >= rows * depth) return;
  const size_t r = v / depth, t = v % depth / k, kk = v % k;
  out[v] = slices[((reversed ? d - t : t) * rows + r) * k + kk];
}

}  // namespace

void slice_columns(const Shape& s, const int8_t* slices_b, int8_t* columns) {
  const dim3 tiles(static_cast<unsigned>((s.n + 31) / 32), static_cast<unsigned>((s.k + 31) / 32), static_cast<unsigned>(s.p));
  columns_kernel<<<tiles, dim3(32, 8)>>>(slices_b, s.k, s.n, columns);
  OZREF_CUDA_LAUNCHED();
}

void concatenate(const int8_t* slices, size_t rows, size_t k, size_t d, bool reversed, int8_t* out) {
  concatenate_kernel<<<blocks_for(rows * (d + 1) * k), 256>>>(slices, rows, k, d, reversed, out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki1
