// The runner: runs a resolved scheme stage by stage. For each stage it takes the outputs from a
// subject (the CPU compute by default; a GPU twin; a trace folder), verifies the stage's contract
// on the outputs actually used, compares a subject's outputs bit for bit with the CPU compute where
// the stage is a function of its inputs, times the stage and traces it. Tracing never changes
// which arithmetic runs: a traced run computes exactly what an untraced one does.
//   re-synchronised (default): the CPU recomputes each stage from the inputs the subject's earlier
//     stages produced, so a divergence is found where it starts and the later stages are still
//     checked;
//   free-running: the CPU runs its own pipeline from the scheme's inputs, the subject its own; the
//     comparison shows where a divergence starts and how it propagates.
#pragma once
#include <string>

#include "schemes/pipeline/scheme.hpp"
#include "schemes/pipeline/subject.hpp"
#include "trace/trace.hpp"

namespace ozref::schemes {

enum class Lockstep { Resynchronised, FreeRunning };

struct RunOptions {
  Verify verify = Verify::Full;
  int threads = 0;                     // 0: OpenMP's default
  TraceWriter* trace = nullptr;        // the arrays each stage used (a subject's where it supplied them)
  TraceWriter* cpu_trace = nullptr;    // with a subject: the CPU's own outputs
  Subject* subject = nullptr;          // null: the CPU alone
  Lockstep mode = Lockstep::Resynchronised;
  std::string reproducers = {};        // a folder for the first differing element of each GEMM stage
  bool measure_accuracy = true;        // the result against the exact product
  // A distributed verify-trace's block (the scheme's own BlockFrame): a subject's differences
  // named and ordered as in the whole arrays, counted by the rank that speaks for them
  // (array_window.hpp), and the GEMM reproducer kept in the comparison, not written (`pending`).
  const BlockFrame* block = nullptr;
};

// `inputs` holds input.a and input.b (Scheme::input_specs); InputError when the scheme refuses them.
SchemeResult run_scheme(const Scheme& scheme, Arrays inputs, const RunOptions& options);

// From the result's stage reports: low_precision_gemms, exactness_conditions, exact and identical
// (the end of run_scheme; a distributed run's, once the ranks' reports are merged).
void settle_exactness(const Scheme& scheme, SchemeResult& result);

}  // namespace ozref::schemes
