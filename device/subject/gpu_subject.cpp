// The GPU side of the runner (reference/schemes/pipeline/gpu.hpp): the device, the stages with GPU
// twins, and the subject of each scheme family (subjects.hpp).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "common/error.hpp"
#include "subject/subjects.hpp"

namespace ozref::schemes {
namespace {

bool ozaki1_family(const Scheme& scheme) { return scheme.name == "ozaki1-int8" || scheme.name == "ozaki1-fp4"; }

std::set<std::string> twin_names(const Scheme& scheme) {
  if (ozaki1_family(scheme)) return without_disabled_twin(ozaki1_twin_names(scheme));
  return without_disabled_twin(scheme.name == "int8-on-fp4" ? int8_on_fp4_twin_names(scheme) : ozaki2_twin_names(scheme));
}

}  // namespace

GpuInfo gpu_info() {
  GpuInfo info;
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    info.why_not = e == cudaSuccess ? "no CUDA device present" : std::string("no CUDA device present (") + cudaGetErrorString(e) + ")";
    return info;
  }
  cudaDeviceProp prop{};
  OZREF_CUDA(cudaGetDeviceProperties(&prop, 0));
  info.sm = 10 * prop.major + prop.minor;
  info.available = info.sm == 90 || info.sm == 100 || info.sm == 120;  // device/CMakeLists.txt's architectures
  info.device = std::string(prop.name) + " (sm_" + std::to_string(prop.major) + std::to_string(prop.minor) + ", " +
                std::to_string(prop.multiProcessorCount) + " SMs)";
  if (!info.available) info.why_not = info.device + ": the twins are built for sm_90a, sm_100a and sm_120a";
  return info;
}

std::vector<std::string> gpu_stages(const Scheme& scheme) {
  const std::set<std::string> twins = twin_names(scheme);
  std::vector<std::string> names;
  for (const auto& st : scheme.stages)
    if (twins.count(std::string(st->name()))) names.push_back(std::string(st->name()));
  return names;
}

std::map<std::string, GpuStageRun> gpu_stages_ran(const Subject& subject) {
  const auto* twins = dynamic_cast<const TwinSubject*>(&subject);
  return twins ? twins->ran() : std::map<std::string, GpuStageRun>{};
}

std::unique_ptr<Subject> make_gpu_subject(const Scheme& scheme, const GpuOptions& options) {
  if (twin_names(scheme).empty())
    throw InputError("lockstep: no GPU twins of " + scheme.name + " on this GPU (implemented: ozaki2-int8, ozaki2-fp8, ozaki2-fp4, rare, ozaki1-int8, ozaki1-fp4, int8-on-fp4)");
  if (options.gemm != "mma" && options.gemm != "cublaslt" && options.gemm != "wgmma-fused")
    throw InputError("lockstep: unknown --gemm '" + options.gemm + "' (known: mma, cublaslt, wgmma-fused)");
  if (options.gemm == "wgmma-fused" && scheme.name != "ozaki2-int8" && scheme.name != "rare")
    throw InputError("lockstep: --gemm wgmma-fused fuses INT8 GEMMs with reduce: ozaki2-int8 and rare only, not " + scheme.name);
  if (!options.fault.empty() && options.fault.find('.') == std::string::npos)
    throw InputError("lockstep: --plant-fault takes <stage>.<array>, got '" + options.fault + "'");
  if (const char* stage = std::getenv("OZREF_GPU_DISABLE_TWIN"))
    std::fprintf(stderr, "lockstep: OZREF_GPU_DISABLE_TWIN=%s: that stage runs on the CPU (a debugging aid)\n", stage);
  if (ozaki1_family(scheme)) return make_ozaki1_subject(scheme, options);
  return scheme.name == "int8-on-fp4" ? make_int8_on_fp4_subject(scheme, options) : make_ozaki2_subject(scheme, options);
}

}  // namespace ozref::schemes
