// stack (complex runs, 4M): the real product [A_re -A_im; A_im A_re] [B_re; B_im] = [Re C; Im C].
#include "runtime/cuda_check.hpp"
#include "stages/ozaki1/twins.hpp"

namespace ozref::device::ozaki1 {
namespace {

__global__ void stack_a_kernel(const double* a, size_t m, size_t k, double* out) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= 4 * m * k) return;
  const size_t i = v / (2 * k), kk = v % (2 * k);  // row i of 2m, column kk of 2k
  const bool lower = i >= m, right = kk >= k;
  const double* part = a + (lower != right ? m * k : 0);  // A_im on the anti-diagonal blocks
  const double x = part[(i % m) * k + kk % k];
  out[v] = !lower && right ? -x : x;
}

}  // namespace

void stack(size_t m, size_t k, size_t n, const double* a, const double* b, double* stacked_a, double* stacked_b) {
  stack_a_kernel<<<blocks_for(4 * m * k), 256>>>(a, m, k, stacked_a);
  OZREF_CUDA_LAUNCHED();
  OZREF_CUDA(cudaMemcpy(stacked_b, b, 2 * k * n * sizeof(double), cudaMemcpyDeviceToDevice));  // [B_re; B_im] is B's two parts
}

}  // namespace ozref::device::ozaki1
