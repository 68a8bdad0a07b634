// A scheme on the GPU twins of its stages and on the CPU, every stage compared bit for bit: what
// `ozref lockstep` does (docs/gpu.md). Defined in ozref::device (link it; without a CUDA toolkit
// ozref::device is built without GPU code and reports that it is unavailable).
#pragma once
#include <string>

#include "ozref/run.hpp"

namespace ozref::api {

struct LockstepOptions {
  RunOptions run = {};              // scheme options, verification level, threads, dump folder
  std::string lockstep = "resync";  // "resync" (both sides fed the same inputs) or "free"
  std::string gemm = "mma";         // the GPU's GEMM stages: "mma", "cublaslt" or "wgmma-fused"
  std::string fault = {};           // "<stage>.<array>": plant a fault (tests of the lockstep)
};

struct LockstepResult {
  bool available = false;  // a GPU was found and ozref was built with CUDA
  std::string why_not;     // when not available
  std::string device;      // "NVIDIA H200 (sm_90, 132 SMs)"
  RunResult result;        // when available
};

// Bad options and inputs are InputErrors even when no GPU is present. (The default options are an
// overload, not a default argument: g++ 12 warns, wrongly, that the temporary's strings "may be
// used uninitialized" where a caller's default argument builds it.)
LockstepResult lockstep(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const LockstepOptions& options);
LockstepResult lockstep(const std::string& scheme, const ArrayRef& a, const ArrayRef& b);

}  // namespace ozref::api
