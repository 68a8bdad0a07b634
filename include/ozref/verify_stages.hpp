// A kernel's stage arrays verified in memory, as `ozref verify-trace` verifies a trace folder
// (docs/verify-trace.md): the same runner, report and re-synchronisation, without files. Give any
// subset of the scheme's stages (ozref schema lists them); the others are computed by the CPU.
#pragma once
#include <string>
#include <vector>

#include "ozref/array.hpp"
#include "ozref/run.hpp"

namespace ozref::api {

// One array of one stage, as ozref schema names them: {"gemm", "c", matrix-like view}.
struct StageArray {
  std::string stage, array;
  ArrayRef data;
};

struct VerifyStagesOptions {
  SchemeOptions scheme;
  std::string verify = {};       // as RunOptions::verify
  std::string reproducers = {};  // a folder for the first differing element of each GEMM stage; empty: none written
  int threads = 0;
};

// A (m x k) and B (k x n) as the kernel received them (f8; c16 for a complex run); `stages` its
// arrays. RunResult as verify_trace gives it (stages[i].comparison, identical, exit_code).
// InputError as TraceWriter::add and finish give it, or for inputs the scheme refuses.
RunResult verify_stages(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const std::vector<StageArray>& stages,
                        const VerifyStagesOptions& options);
RunResult verify_stages(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const std::vector<StageArray>& stages);

}  // namespace ozref::api
