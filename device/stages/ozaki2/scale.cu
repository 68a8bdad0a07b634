// scale: the shifts, a free choice checked through truncate's CRT bound. fast: Cauchy-Schwarz on
// FP64 sums of squares inflated by (1 + (k + 2) 2^-52), which covers their rounding (the CPU sums
// in 80-bit arithmetic: the two may differ by one where a bound is that close); accurate:
// from the bound GEMM's row and column maxima, as reference/schemes/ozaki2/scaling.cpp.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

__device__ int half_shift(double log2_bound, double x) { return static_cast<int>(floor((log2_bound - log2(x)) / 2)); }

// The FP64 sum of the squared magnitudes of `length` elements from `first` by `step`.
__device__ double sum_of_squares(const double* x, size_t parts, size_t count, size_t first, size_t step, size_t length) {
  double sum = 0;
  for (size_t i = 0; i < length; ++i) {
    const double mag = magnitude(x, parts, count, first + i * step);
    sum += mag * mag;
  }
  return sum;
}

// An upper bound of the exact sum of k squares from their FP64 sum (in any order): each of the k
// products and k additions errs by at most 2^-53 relative.
__device__ double inflated(double sum, size_t k) { return sum * (1 + static_cast<double>(k + 2) * 0x1p-52); }

// B's columns: 32 per block, each summed by 8 threads over strided rows (consecutive threads read
// consecutive elements of B's rows), then added in shared memory (the bound covers any order).
constexpr int kColumnGroups = 8;

__global__ void fast_columns_kernel(const double* b, size_t parts, size_t k, size_t n, double L, int32_t* col) {
  __shared__ double partial[kColumnGroups][32];
  const size_t j = blockIdx.x * size_t(32) + threadIdx.x;
  const size_t mine = k > threadIdx.y ? (k - threadIdx.y + kColumnGroups - 1) / kColumnGroups : 0;
  partial[threadIdx.y][threadIdx.x] = j < n ? sum_of_squares(b, parts, k * n, threadIdx.y * n + j, kColumnGroups * n, mine) : 0.0;
  __syncthreads();
  if (threadIdx.y != 0 || j >= n) return;
  double sum = 0;
  for (int g = 0; g < kColumnGroups; ++g) sum += partial[g][threadIdx.x];
  const double sq = inflated(sum, k);
  col[j] = sq > 0 ? half_shift(L, sq) : 0;
}

// A's rows: one warp each, its lanes summing strided elements (the bound covers any order).
__global__ void fast_rows_kernel(const double* a, size_t parts, size_t m, size_t k, double L, int32_t* row) {
  const size_t i = blockIdx.x * size_t(blockDim.x / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (i >= m) return;
  const size_t mine = k > size_t(lane) ? (k - lane + 31) / 32 : 0;
  double sq = sum_of_squares(a, parts, m * k, i * k + lane, 32, mine);
  for (int off = 16; off > 0; off /= 2) sq += __shfl_xor_sync(0xffffffffu, sq, off);
  sq = inflated(sq, k);
  if (lane == 0) row[i] = sq > 0 ? half_shift(L, sq) : 0;
}

// A bound GEMM output as the CPU reads it (LowpGemm::output_value): its value times 2^exponent,
// NaN and infinity (an accumulator fault the bound stage reports) as 2^127.
template <typename C>
__device__ double bound_value(C c, int exponent) {
  const double x = ldexp(static_cast<double>(c), exponent);
  return x <= 0x1p127 ? x : 0x1p127;
}

template <typename C>
__global__ void accurate_kernel(const C* c, int exponent, size_t m, size_t n, const int32_t* u, const int32_t* v, double L, int32_t* row,
                                int32_t* col) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  double largest = 0;
  if (x < m) {
    for (size_t j = 0; j < n; ++j) largest = fmax(largest, bound_value(c[x * n + j], exponent));
    row[x] = largest > 0 ? u[x] + half_shift(L, largest) : 0;
  } else if (x < m + n) {
    const size_t j = x - m;
    for (size_t i = 0; i < m; ++i) largest = fmax(largest, bound_value(c[i * n + j], exponent));
    col[j] = largest > 0 ? v[j] + half_shift(L, largest) : 0;
  }
}

}  // namespace

void scale_fast(const Shape& s, const double* a, const double* b, double log2_bound, int32_t* row_shift, int32_t* col_shift) {
  fast_rows_kernel<<<blocks_for(s.m, 8), 256>>>(a, s.S, s.m, s.k, log2_bound, row_shift);
  OZREF_CUDA_LAUNCHED();
  fast_columns_kernel<<<static_cast<unsigned>((s.n + 31) / 32), dim3(32, kColumnGroups)>>>(b, s.S, s.k, s.n, log2_bound, col_shift);
  OZREF_CUDA_LAUNCHED();
}

template <typename C>
void scale_accurate_from(const Shape& s, const C* c_hi, int exponent, const int32_t* row_exp, const int32_t* col_exp, double log2_bound,
                         int32_t* row_shift, int32_t* col_shift) {
  accurate_kernel<<<blocks_for(s.m + s.n), 256>>>(c_hi, exponent, s.m, s.n, row_exp, col_exp, log2_bound, row_shift, col_shift);
  OZREF_CUDA_LAUNCHED();
}

void scale_accurate(const Shape& s, const int32_t* c_hi, const int32_t* row_exp, const int32_t* col_exp, double log2_bound,
                    int32_t* row_shift, int32_t* col_shift) {
  scale_accurate_from(s, c_hi, 0, row_exp, col_exp, log2_bound, row_shift, col_shift);
}

void scale_accurate(const Shape& s, const float* c_hi, int output_exponent, const int32_t* row_exp, const int32_t* col_exp, double log2_bound,
                    int32_t* row_shift, int32_t* col_shift) {
  scale_accurate_from(s, c_hi, output_exponent, row_exp, col_exp, log2_bound, row_shift, col_shift);
}

}  // namespace ozref::device::ozaki2
