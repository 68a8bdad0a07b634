// residues: the balanced residues of A' (by rows, N x P x m x k) and B' (by columns, N x P x n x k)
// modulo every modulus, as int8 (every modulus at most 256) or int16; plane 2 of a complex run is
// re + im in residue arithmetic.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

// The residues of element `at` of every part into element v of every plane of every modulus.
template <typename R>
__device__ void residues_of(const double* x, size_t parts, size_t planes, size_t count, size_t at, size_t v, const int64_t* moduli, size_t N,
                            R* out) {
  for (size_t t = 0; t < N; ++t) {
    const int64_t m = moduli[t];
    int64_t r[3];
    for (size_t p = 0; p < parts; ++p) r[p] = residue_of_integer(x[p * count + at], m);
    if (planes == 3) r[2] = balanced_residue(r[0] + r[1], m);
    for (size_t p = 0; p < planes; ++p) out[(t * planes + p) * count + v] = static_cast<R>(r[p]);
  }
}

// A's elements in order (rows of k).
template <typename R>
__global__ void rows_kernel(const double* x, size_t parts, size_t planes, size_t count, const int64_t* moduli, size_t N, R* out) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v < count) residues_of(x, parts, planes, count, v, v, moduli, N, out);
}

// B (k x n) by columns (n x k): 32 x 32 tiles, each thread reading along B's rows (coalesced) and
// writing the element of the column it landed on.
template <typename R>
__global__ void columns_kernel(const double* x, size_t parts, size_t planes, size_t k, size_t n, const int64_t* moduli, size_t N, R* out) {
  const size_t j = blockIdx.x * size_t(32) + threadIdx.x, kk = blockIdx.y * size_t(32) + threadIdx.y;
  if (j < n && kk < k) residues_of(x, parts, planes, k * n, kk * n + j, j * k + kk, moduli, N, out);
}

template <typename R>
void residues_into(const Shape& s, const double* ta, const double* tb, const int64_t* moduli, R* ra, R* rb) {
  rows_kernel<<<blocks_for(s.m * s.k), 256>>>(ta, s.S, s.P, s.m * s.k, moduli, s.N, ra);
  OZREF_CUDA_LAUNCHED();
  const dim3 tiles(static_cast<unsigned>((s.n + 31) / 32), static_cast<unsigned>((s.k + 31) / 32));
  columns_kernel<<<tiles, dim3(32, 32)>>>(tb, s.S, s.P, s.k, s.n, moduli, s.N, rb);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace

void residues(const Shape& s, const double* ta, const double* tb, const int64_t* moduli, int8_t* ra, int8_t* rb) {
  residues_into(s, ta, tb, moduli, ra, rb);
}

void residues(const Shape& s, const double* ta, const double* tb, const int64_t* moduli, int16_t* ra, int16_t* rb) {
  residues_into(s, ta, tb, moduli, ra, rb);
}

}  // namespace ozref::device::ozaki2
