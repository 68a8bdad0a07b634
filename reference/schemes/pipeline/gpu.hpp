// The GPU twins of the stages (device/) as a subject of the runner. Built when a CUDA toolkit is
// found; otherwise every call says so. The twins have the CPU stages' names, array layouts and
// rounding order, so the runner compares them bit for bit (ozref lockstep).
#pragma once
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
};
GpuInfo gpu_info();

struct GpuOptions {
  std::string gemm = "mma";  // the GEMM stages: "mma" (ozref's kernels on the instruction) or "cublaslt"
  std::string fault;         // a fault to plant, "<stage>.<array>" (tests of the lockstep itself)
};

// The stages of `scheme` that have GPU twins (empty for a scheme without any).
std::vector<std::string> gpu_stages(const Scheme& scheme);
// InputError when the scheme has no GPU twins or the options are unknown; the GPU must be
// available (gpu_info()).
std::unique_ptr<Subject> make_gpu_subject(const Scheme& scheme, const GpuOptions& options);

}  // namespace ozref::schemes
