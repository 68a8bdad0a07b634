// bound (accurate scaling): each line's exponent u with max |x| 2^u in [2^(bits-1), 2^bits) and the
// operands ceil(|x| 2^u) (a nonzero |x| 2^u that underflows still has the ceiling 1), as
// reference/schemes/ozaki2/bound.cpp and scaling.cpp compute them: bits 6 for INT8, 4 for E4M3
// (every integer up to 16 is an E4M3 value, so no ceiling needs the next one the format holds).
// The GEMM is run by the subject.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__device__ int8_t ceiling(double mag, int u) {
  const double f = normal_power_of_two(u);
  const double c = ceil(f != 0 ? mag * f : ldexp(mag, u));
  return static_cast<int8_t>(mag != 0 && c == 0 ? 1.0 : c);
}

__device__ int exponent_of(double largest, int bits) { return largest == 0 ? 0 : bits - 1 - ilogb(largest); }

// One warp per row of A: its largest magnitude, then its operands.
__global__ void rows_kernel(const double* a, size_t parts, size_t m, size_t k, int bits, int32_t* exponent, int8_t* op) {
  const size_t row = blockIdx.x * size_t(blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= m) return;
  double largest = 0;
  for (size_t kk = lane; kk < k; kk += 32) largest = fmax(largest, magnitude(a, parts, m * k, row * k + kk));
  for (int off = 16; off > 0; off /= 2) largest = fmax(largest, __shfl_xor_sync(0xffffffffu, largest, off));
  const int u = exponent_of(largest, bits);
  if (lane == 0) exponent[row] = u;
  for (size_t kk = lane; kk < k; kk += 32) op[row * k + kk] = ceiling(magnitude(a, parts, m * k, row * k + kk), u);
}

// One thread per column of B (k x n): its largest magnitude, then its operands by columns (n x k).
__global__ void columns_kernel(const double* b, size_t parts, size_t k, size_t n, int bits, int32_t* exponent, int8_t* op) {
  const size_t j = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  double largest = 0;
  for (size_t kk = 0; kk < k; ++kk) largest = fmax(largest, magnitude(b, parts, k * n, kk * n + j));
  const int v = exponent_of(largest, bits);
  exponent[j] = v;
  for (size_t kk = 0; kk < k; ++kk) op[j * k + kk] = ceiling(magnitude(b, parts, k * n, kk * n + j), v);
}

}  // namespace

void bound_operands(const Shape& s, int bits, const double* a, const double* b, int32_t* row_exp, int32_t* col_exp, int8_t* op_a, int8_t* op_b) {
  rows_kernel<<<blocks_for(s.m, 8), 256>>>(a, s.S, s.m, s.k, bits, row_exp, op_a);
  OZREF_CUDA_LAUNCHED();
  columns_kernel<<<blocks_for(s.n), 256>>>(b, s.S, s.k, s.n, bits, col_exp, op_b);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
