// A trace written by any kernel, verified stage by stage, re-synchronised: what
// `ozref verify-trace` does (docs/verify-trace.md).
#pragma once
#include <string>

#include "ozref/run.hpp"

namespace ozref::api {

struct VerifyTraceOptions {
  std::string a = {}, b = {};  // .npy files of the scheme's inputs, when the trace holds none
  std::string verify = {};     // as RunOptions::verify
  std::string reproducers = {};  // where GEMM reproducers go; empty: DIR/reproducers
  int threads = 0;
};

// Each stage's comparison is in RunResult::stages[i].comparison; RunResult::identical says
// whether all agree. InputError for a malformed trace.
RunResult verify_trace(const std::string& dir, const VerifyTraceOptions& options);
RunResult verify_trace(const std::string& dir);

}  // namespace ozref::api
