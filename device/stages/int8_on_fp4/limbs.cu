// limbs: greedy base-13 digits of the INT8 values by the CPU's own definition (greedy_digits.hpp).
#include "runtime/cuda_check.hpp"
#include "schemes/common/greedy_digits.hpp"
#include "stages/int8_on_fp4/twins.hpp"

namespace ozref::device::int8_on_fp4 {
namespace {

__global__ void limbs_kernel(const double* x, size_t count, int8_t* limbs) {
  const size_t v = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (v >= count) return;
  int8_t d[kLimbs];
  schemes::to_base13(static_cast<int64_t>(x[v]), kLimbs, d);  // INT8 values: always fits
  for (size_t q = 0; q < kLimbs; ++q) limbs[q * count + v] = d[q];
}

}  // namespace

void limbs(const double* x, size_t count, int8_t* limbs) {
  limbs_kernel<<<blocks_for(count), 256>>>(x, count, limbs);
  OZREF_CUDA_LAUNCHED();
}

}  // namespace ozref::device::int8_on_fp4
