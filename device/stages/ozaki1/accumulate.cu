// accumulate: C' = sum weight(t + u) C_tu, exact (a two's complement integer of `words` 64-bit
// words; every weight a power of two) or in FP64 in the CPU's order (each output converted and
// multiplied by its FP64 weight, then added).
#include "runtime/cuda_check.hpp"
#include "stages/ozaki1/twins.hpp"

namespace ozref::device::ozaki1 {
namespace {

constexpr int kMaxOutputs = 45;  // p(p+1)/2 for p = 9

struct Shifts {
  int shift[kMaxOutputs];
  double weight[kMaxOutputs];
};

__global__ void exact_kernel(const int32_t* c, size_t mn, size_t outputs, Shifts weights, int words, int64_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= mn) return;
  uint64_t acc[ozaki2::kMaxWords + 1] = {};
  for (size_t q = 0; q < outputs; ++q) ozaki2::wide_add_shifted(acc, words, c[q * mn + x], weights.shift[q]);
  for (int i = 0; i < words; ++i) out[x * words + i] = static_cast<int64_t>(acc[i]);
}

__global__ void fp64_kernel(const int32_t* c, size_t mn, size_t outputs, Shifts weights, double* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= mn) return;
  double sum = 0;
  for (size_t q = 0; q < outputs; ++q) sum += static_cast<double>(c[q * mn + x]) * weights.weight[q];
  out[x] = sum;
}

Shifts table(const std::vector<int>& shift, const std::vector<double>& weight) {
  Shifts t{};
  for (size_t q = 0; q < shift.size() && q < kMaxOutputs; ++q) t.shift[q] = shift[q];
  for (size_t q = 0; q < weight.size() && q < kMaxOutputs; ++q) t.weight[q] = weight[q];
  return t;
}

}  // namespace

void accumulate_exact(const Shape& s, const int32_t* c, const std::vector<int>& shift, size_t words, int64_t* out) {
  if (shift.size() > kMaxOutputs || words > ozaki2::kMaxWords) throw std::logic_error("ozaki1 accumulate twin: more outputs or words than it holds");
  exact_kernel<<<blocks_for(s.m * s.n), 256>>>(c, s.m * s.n, shift.size(), table(shift, {}), static_cast<int>(words), out);
  OZREF_CUDA_LAUNCHED();
}

void accumulate_fp64(const Shape& s, const int32_t* c, const std::vector<double>& weight, double* out) {
  if (weight.size() > kMaxOutputs) throw std::logic_error("ozaki1 accumulate twin: more outputs than it holds");
  fp64_kernel<<<blocks_for(s.m * s.n), 256>>>(c, s.m * s.n, weight.size(), table({}, weight), out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::ozaki1
