// The crt and unscale stages in one kernel, for the emulated GEMM (bench/bench_gpu_pipeline.cu):
// each element's CRT (crt_element) rounded at once (unscale_element), the wide C' never written.
// The lockstep runs the two stages apart, so that each is compared on its own.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

template <int words>
__global__ void crt_unscale_kernel(const int16_t* residues, size_t S, size_t m, size_t n, size_t N, const int32_t* weight_limbs,
                                   const double* weights_fp64, const uint64_t* product, double inv_p, const int32_t* row, const int32_t* col,
                                   double* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x, mn = m * n;
  if (x >= S * mn) return;
  const size_t o = x / mn, v = x % mn;
  int64_t c[words];
  crt_element_of<words>(residues + o * mn + v, S * mn, N, weight_limbs, weights_fp64, product, inv_p, c);
  out[x] = unscale_element_of<words>(c, 0, 0, -(row[v / n] + col[v % n]));
}

}  // namespace

void crt_unscale_exact(const Shape& s, const int16_t* residues, const CrtTables& t, const int32_t* row_shift, const int32_t* col_shift,
                       double* out) {
  if (t.words > kMaxWords) throw std::runtime_error("crt twin: P needs more than " + std::to_string(kMaxWords) + " words");
  const DeviceArray<int32_t> limbs(t.weight_limbs.data(), t.weight_limbs.size());
  const DeviceArray<uint64_t> product(t.product.data(), t.product.size());
  const DeviceArray<double> weights_fp64(t.weights_fp64.data(), t.weights_fp64.size());
  with_words(t.words, [&](auto words) {
    crt_unscale_kernel<words><<<blocks_for(s.S * s.m * s.n, 128), 128>>>(residues, s.S, s.m, s.n, s.N, limbs.get(), weights_fp64.get(),
                                                                        product.get(), t.inv_p, row_shift, col_shift, out);
  });
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki2
