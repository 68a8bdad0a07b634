// The kernels of the exact product on the GPU (exact_kernels.hpp): each a loop over the per-element
// functions of reference/exact/exact_element.hpp, the ones gpu_exact_model runs on the CPU.
#include <climits>

#include "exact/exact_kernels.hpp"
#include "runtime/cuda_check.hpp"

namespace ozref::device::exact {
namespace {

using namespace ozref::exact_element;

// Residues of slice `slice` of `lines` lines (rows of x, or its columns when `columns`), depth
// [k0, k0 + kb), modulus by modulus: out[q][l][kk] over lines_padded x kp (zeros in the padding).
__global__ void residues_kernel(const uint64_t* x, size_t ld, bool columns, size_t lines, size_t lines_padded, size_t k0,
                                size_t kb, size_t kp, const int* low, int w, int slice, const CrtTables t,
                                const uint8_t* pow2, int pow2_row, int8_t* out, int* any) {
  const size_t idx = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= lines_padded * kp) return;
  // kk fastest: the int8 writes coalesced (B's reads, one double a thread down a column, are the cheaper side to scatter).
  const size_t l = idx / kp, kk = idx % kp;
  uint64_t bits = 0, sig = 0;
  int shift = 0;
  bool in = false;
  if (l < lines && kk < kb) {
    bits = columns ? x[(k0 + kk) * ld + l] : x[l * ld + k0 + kk];
    in = slice_entry(bits, low[l], w, slice, sig, shift);
  }
  if (in) *any = 1;
  const size_t plane = lines_padded * kp;
  for (int q = 0; q < t.count; ++q)
    out[q * plane + l * kp + kk] = in ? entry_residue(bits >> 63, sig, shift, t.m[q], t.magic[q], pow2 + size_t(q) * pow2_row) : int8_t(0);
}

// u[i n + j] = c[i np + j] mod m, for i < h, j < n.
__global__ void reduce_kernel(const int32_t* c, size_t h, size_t n, size_t np, uint32_t m, uint8_t* u) {
  const size_t e = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e < h * n) u[e] = reduce_sum(c[(e / n) * np + e % n], m);
}

// Each element's integer from its residues (u[q][e]), added into its accumulator at `offset`.
__global__ void crt_kernel(const uint8_t* u, size_t count, const CrtTables t, uint64_t* acc, int words, unsigned offset) {
  const size_t e = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= count) return;
  uint64_t mag[kCrtWords];
  bool negative = false;
  garner(t, u + e, count, mag, negative);
  add_shifted(acc + e * words, words, negative, mag, t.words, offset);
}

__global__ void round_kernel(uint64_t* acc, size_t h, size_t n, int words, const int* row_low, const int* col_low, RoundedArrays out) {
  const size_t e = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= h * n) return;
  const int rl = row_low[e / n], cl = col_low[e % n];
  const RoundedElement r = round_element(acc + e * words, words, rl == INT_MAX || cl == INT_MAX ? 0 : rl + cl);
  out.nearest[e] = r.nearest, out.nearest_fp32[e] = r.nearest_fp32;
  out.residual_sig[e] = r.residual_sig, out.residual_exp[e] = r.residual_exp;
  out.flags[e] = uint8_t(r.residual_negative) | uint8_t(r.residual_exact) << 1;
}

}  // namespace

void residues(const uint64_t* x, size_t ld, bool columns, size_t lines, size_t lines_padded, size_t k0, size_t kb, size_t kp,
              const int* low, int w, int slice, const CrtTables& t, const uint8_t* pow2, int pow2_row, int8_t* out, int* any) {
  residues_kernel<<<blocks_for(lines_padded * kp), 256>>>(x, ld, columns, lines, lines_padded, k0, kb, kp, low, w, slice, t, pow2, pow2_row, out, any);
  OZREF_CUDA_LAUNCHED();
}

void reduce(const int32_t* c, size_t h, size_t n, size_t np, uint32_t m, uint8_t* u) {
  reduce_kernel<<<blocks_for(h * n), 256>>>(c, h, n, np, m, u);
  OZREF_CUDA_LAUNCHED();
}

void crt(const uint8_t* u, size_t count, const CrtTables& t, uint64_t* acc, int words, unsigned offset) {
  crt_kernel<<<blocks_for(count), 256>>>(u, count, t, acc, words, offset);
  OZREF_CUDA_LAUNCHED();
}

void round(uint64_t* acc, size_t h, size_t n, int words, const int* row_low, const int* col_low, const RoundedArrays& out) {
  round_kernel<<<blocks_for(h * n), 256>>>(acc, h, n, words, row_low, col_low, out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::exact
