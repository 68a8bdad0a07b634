// The GPU side of a build without CUDA: every call says so (ozref lockstep exits 77).
#include "common/error.hpp"
#include "mma/gpu_mma.hpp"
#include "schemes/pipeline/gpu.hpp"

namespace ozref::schemes {

GpuInfo gpu_info() { return {false, "", "ozref was built without CUDA (no CUDA toolkit found, or OZREF_CUDA=OFF)"}; }

std::vector<std::string> gpu_stages(const Scheme&) { return {}; }

std::map<std::string, GpuStageRun> gpu_stages_ran(const Subject&) { return {}; }

std::unique_ptr<Subject> make_gpu_subject(const Scheme&, const GpuOptions&) { throw InputError(gpu_info().why_not); }

}  // namespace ozref::schemes

namespace ozref::mma {

std::vector<std::string> gpu_instructions() { return {}; }

std::vector<uint32_t> gpu_gemm(const std::string&, size_t, size_t, size_t, std::span<const uint8_t>, std::span<const uint8_t>) {
  throw InputError(schemes::gpu_info().why_not);
}

}  // namespace ozref::mma
