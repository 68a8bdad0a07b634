// The crt and unscale stages in one kernel, for the emulated GEMM (bench/bench_gpu_pipeline.cu):
// each element's CRT (crt_element.cuh) rounded at once (unscale_element), the wide C' never written.
// The lockstep runs the two stages apart, so that each is compared on its own.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/crt_element.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

// E consecutive elements of one row per thread (E divides n).
template <int words, int E>
__global__ void crt_unscale_kernel(const int16_t* residues, size_t S, size_t m, size_t n, const __grid_constant__ CrtConstants<words> k,
                                   const int32_t* row, const int32_t* col, double* out) {
  const size_t x = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * E, mn = m * n;
  if (x >= S * mn) return;
  const size_t o = index_quotient(x, mn), v = x - o * mn, i = index_quotient(v, n), j = v - i * n;
  uint64_t c[E][words];
  crt_elements_of<words, E>(residues + o * mn + v, S * mn, k, c);
  for (int e = 0; e < E; ++e) out[x + e] = unscale_element_of<words>(reinterpret_cast<const int64_t*>(c[e]), 0, 0, -(row[i] + col[j + e]));
}

}  // namespace

void crt_unscale_exact(const Shape& s, const int16_t* residues, const CrtTables& t, const int32_t* row_shift, const int32_t* col_shift,
                       double* out) {
  const size_t count = s.S * s.m * s.n;
  with_words(t.words, [&](auto words) {
    const CrtConstants<words> k = crt_constants<words>(t);
    if (s.n % 4 == 0) crt_unscale_kernel<words, 4><<<blocks_for(count / 4, 256), 256>>>(residues, s.S, s.m, s.n, k, row_shift, col_shift, out);
    else crt_unscale_kernel<words, 1><<<blocks_for(count, 256), 256>>>(residues, s.S, s.m, s.n, k, row_shift, col_shift, out);
  });
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
