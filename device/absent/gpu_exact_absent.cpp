// The exact product on the GPU in a build without CUDA: it says so (ozref exact --device gpu exits 77).
#include "common/error.hpp"
#include "exact/gpu_exact.hpp"
#include "schemes/pipeline/gpu.hpp"

namespace ozref {

GpuExactProduct gpu_exact(const Matrix<double>&, const Matrix<double>&) { throw InputError(schemes::gpu_info().why_not); }

}  // namespace ozref
