// The GPU twins of the stages (device/) as a subject of the runner. Built when a CUDA toolkit is
// found; otherwise every call says so. The twins have the CPU stages' names, array layouts and
// rounding order, so the runner compares them bit for bit (ozref lockstep).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "schemes/pipeline/scheme.hpp"
#include "schemes/pipeline/subject.hpp"

namespace ozref::schemes {

struct GpuInfo {
  bool available = false;
  std::string device;   // "NVIDIA H200 (sm_90, 132 SMs)"
  std::string why_not;  // "no CUDA device present", "built without CUDA"
  int sm = 0;           // 90, 100, 120 (10 * major + minor); 0 where no device answered
};
GpuInfo gpu_info();

struct GpuOptions {
  // The GEMM stages: "mma" (ozref's kernels on the instruction), "cublaslt", or "wgmma-fused"
  // (ozaki2-int8, rare: reduce's twin runs the wgmma kernel with the reduction fused, from the residues).
  std::string gemm = "mma";
  std::string fault;         // a fault to plant, "<stage>.<array>" (tests of the lockstep itself)
};

// The stages of `scheme` that have GPU twins (empty for a scheme without any). The environment
// variable OZREF_GPU_DISABLE_TWIN=<stage> takes that stage's twin away (its stage runs on the CPU):
// a debugging aid, and the suite's proof that its presence check fails when a stage leaves the GPU.
std::vector<std::string> gpu_stages(const Scheme& scheme);

// What the device ran for one stage: kernel launches by launch site ("residues.cu:224") and the
// GEMM kernels or library calls with their instruction or algorithm, each with its count.
struct GpuStageRun {
  std::map<std::string, size_t> launches;
  std::map<std::string, size_t> gemms;
};
// Per stage, what the GPU subject recorded while it ran (empty for any other subject).
std::map<std::string, GpuStageRun> gpu_stages_ran(const Subject& subject);
// InputError when the scheme has no GPU twins or the options are unknown; the GPU must be
// available (gpu_info()).
std::unique_ptr<Subject> make_gpu_subject(const Scheme& scheme, const GpuOptions& options);

}  // namespace ozref::schemes
