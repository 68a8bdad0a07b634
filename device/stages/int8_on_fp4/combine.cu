// combine: the nine FP4 GEMM outputs weighted by 13^(i+j), summed in 64 bits and wrapped to INT32
// as the INT8 MMA wraps.
#include "runtime/cuda_check.hpp"
#include "stages/int8_on_fp4/twins.hpp"
#include "stages/ozaki2/limbs.cuh"

namespace ozref::device::int8_on_fp4 {
namespace {

__global__ void combine_kernel(const uint32_t* c, size_t mn, int32_t* out) {
  const size_t x = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (x >= mn) return;
  constexpr int64_t kWeight[2 * kLimbs - 1] = {1, 13, 169, 2197, 28561};
  int64_t sum = 0;
  for (size_t g = 0; g < kLimbs * kLimbs; ++g) {
    const int64_t v = ozaki2::fp32_integer_output(c[g * mn + x], ozaki2::kE2M1OutputExponent);
    sum += kWeight[g / kLimbs + g % kLimbs] * (v == ozaki2::kNotAnInteger ? 0 : v);
  }
  out[x] = static_cast<int32_t>(static_cast<uint32_t>(sum));
}

}  // namespace

void combine(const uint32_t* c, size_t mn, int32_t* out) {
  combine_kernel<<<blocks_for(mn), 256>>>(c, mn, out);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::int8_on_fp4
