// A scheme run on the GPU twins of its stages and on the CPU, every stage compared bit for bit, as
// `ozref lockstep` and the library's lockstep() make it. Defined in ozref_device (device/api/),
// which has the GPU subject; a build without CUDA defines it too, and reports no GPU.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "api/scheme_run.hpp"
#include "schemes/pipeline/gpu.hpp"
#include "schemes/pipeline/runner.hpp"

namespace ozref {

// "resync" or "free"; InputError naming --lockstep otherwise.
schemes::Lockstep lockstep_mode(const std::string& name);

struct LockstepRequest {
  SchemeRunRequest run;  // its dump folder gets DIR/gpu, DIR/cpu and DIR/reproducers
  schemes::Lockstep mode = schemes::Lockstep::Resynchronised;
  std::string gemm = "mma";  // or "cublaslt", "wgmma-fused"
  std::string fault;         // "<stage>.<array>", or empty
};

struct LockstepRun {
  schemes::GpuInfo gpu;  // when not available, nothing ran (run.result is empty)
  SchemeRun run{};
  std::map<std::string, schemes::GpuStageRun> ran;  // what the device ran, per stage
};

// The scheme is built (and its options refused) before the GPU is looked for.
LockstepRun lockstep_named_scheme(const LockstepRequest& request, SchemeInputs inputs);
// `ozref lockstep --json` (`lockstep` and `gemm` as given).
nlohmann::json lockstep_json(const LockstepRun& run, const std::string& lockstep, const std::string& gemm);

}  // namespace ozref
