// A trace folder verified stage by stage, re-synchronised, as `ozref verify-trace` and the
// library's verify_trace() do it: the scheme rebuilt from the manifest, each stage the trace holds
// checked against its contract and, where the stage is a function of its inputs, against the
// CPU's recomputation from the trace's own inputs to it, bit for bit; a stage the trace lacks is
// computed by the CPU.
#pragma once
#include <string>

#include "schemes/pipeline/scheme.hpp"
#include "schemes/stage_report.hpp"

namespace ozref {

struct TraceVerificationRequest {
  std::string dir;
  std::string a, b;         // the scheme's inputs (.npy), when the trace holds none
  std::string verify;       // a level's name; empty: the default for the shape
  std::string reproducers;  // empty: DIR/reproducers
  int threads = 0;
};

struct TraceVerification {
  schemes::Scheme scheme;
  schemes::Verify verify = schemes::Verify::Full;
  schemes::SchemeResult result{};
};

// Whether the inputs come from --a and --b (InputError when only one is given) or from the trace.
bool inputs_from_files(const TraceVerificationRequest& request);
// InputError unless --a and --b (m x k, k x n) have the manifest's shape.
void require_manifest_shape(size_t m, size_t n, size_t k, const schemes::Scheme& s);
// Where GEMM reproducers go.
std::string reproducers_folder(const TraceVerificationRequest& request);

// InputError for a malformed trace, inputs that do not match the manifest, --a without --b.
TraceVerification verify_trace_folder(const TraceVerificationRequest& request);

}  // namespace ozref
