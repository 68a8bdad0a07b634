// The GPU oracle in a build without CUDA: it says so (ozref serve --device gpu exits 77).
#include "common/error.hpp"
#include "infer/gpu_oracle.hpp"
#include "schemes/pipeline/gpu.hpp"

namespace ozref::infer {

std::vector<std::string> gpu_oracle_ops() { return {}; }
Oracle gpu_oracle() { throw InputError(schemes::gpu_info().why_not); }

}  // namespace ozref::infer
