// accumulate: C' = sum weight(t + u) C_tu, exact (a two's complement integer of `words` 64-bit
// words; the weights powers of two, or of 13 for fp4) or in FP64 in the CPU's order (each output's
// integer converted and multiplied by its FP64 weight, then added). The GEMM outputs are INT32, or
// (fp4) FP32 values times 4 (gemm_integer); one that is no integer adds nothing, as on the CPU,
// whose gemm stage reports it.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki1/twins.hpp"
#include "stages/ozaki2/limbs.cuh"

namespace ozref::device::ozaki1 {
namespace {

constexpr int kMaxOutputs = 136;  // p(p+1)/2 for fp4's p = 16
constexpr int kWeightWords = 2;   // 13^30 < 2^112

struct Weights {
  uint64_t exact[kMaxOutputs][kWeightWords];
  double fp64[kMaxOutputs];
};

__device__ int64_t gemm_integer(int32_t c) { return c; }
__device__ int64_t gemm_integer(uint32_t fp32_bits) { return ozaki2::fp32_integer_output(fp32_bits, ozaki2::kE2M1OutputExponent); }

template <typename Output>
__global__ void exact_kernel(const Output* c, size_t mn, size_t outputs, const Weights* w, int words, int64_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= mn) return;
  uint64_t acc[ozaki2::kMaxWords] = {};
  for (size_t q = 0; q < outputs; ++q) {
    const int64_t v = gemm_integer(c[q * mn + x]);
    if (v != ozaki2::kNotAnInteger) ozaki2::wide_add_product(acc, words, w->exact[q], kWeightWords, v);
  }
  for (int i = 0; i < words; ++i) out[x * words + i] = static_cast<int64_t>(acc[i]);
}

template <typename Output>
__global__ void fp64_kernel(const Output* c, size_t mn, size_t outputs, const Weights* w, double* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= mn) return;
  double sum = 0;
  for (size_t q = 0; q < outputs; ++q) {
    const int64_t v = gemm_integer(c[q * mn + x]);
    if (v != ozaki2::kNotAnInteger) sum += static_cast<double>(v) * w->fp64[q];
  }
  out[x] = sum;
}

DeviceArray<Weights> weight_table(const std::vector<OutputWeight>& weights) {
  if (weights.size() > kMaxOutputs) throw std::logic_error("ozaki1 accumulate twin: more GEMM outputs than it holds");
  Weights t{};
  for (size_t q = 0; q < weights.size(); ++q) {
    t.exact[q][0] = weights[q].low, t.exact[q][1] = weights[q].high;
    t.fp64[q] = weights[q].fp64;
  }
  return DeviceArray<Weights>(&t, 1);
}

template <typename Output>
void accumulate_outputs(const Shape& s, const Output* c, const std::vector<OutputWeight>& weights, size_t words, void* out) {
  if (words > ozaki2::kMaxWords) throw std::logic_error("ozaki1 accumulate twin: more words than it holds");
  const DeviceArray<Weights> w = weight_table(weights);
  if (words) exact_kernel<<<blocks_for(s.m * s.n), 256>>>(c, s.m * s.n, weights.size(), w.get(), static_cast<int>(words), static_cast<int64_t*>(out));
  else fp64_kernel<<<blocks_for(s.m * s.n), 256>>>(c, s.m * s.n, weights.size(), w.get(), static_cast<double*>(out));
  OZREF_CUDA_LAUNCHED();
}

}  // namespace

void accumulate(const Shape& s, const int32_t* c, const std::vector<OutputWeight>& weights, size_t words, void* out) {
  accumulate_outputs(s, c, weights, words, out);
}

void accumulate(const Shape& s, const uint32_t* c, const std::vector<OutputWeight>& weights, size_t words, void* out) {
  accumulate_outputs(s, c, weights, words, out);
}

}  // namespace ozref::device::ozaki1
