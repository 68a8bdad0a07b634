#include "api/scheme_run.hpp"

#include <memory>

#include "api/operands.hpp"
#include "api/verify_level.hpp"
#include "common/memory_budget.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/runner.hpp"
#include "trace/trace.hpp"

namespace ozref {

SchemeRun run_named_scheme(const SchemeRunRequest& request, SchemeInputs x) {
  const schemes::SchemeOptions options = schemes::with_input_resolved_options(request.scheme, request.options, x.arrays, x.m, x.n, x.k);
  SchemeRun run{.scheme = schemes::build_scheme(request.scheme, options, x.m, x.n, x.k),
                .verify = verify_level(request.verify, x.m, x.n, x.k),
                .source = x.source};
  // the stages' arrays, and the exact product the accuracy is measured against: refused up front
  require_memory(run.scheme.held_bytes(!request.dump.empty()) + exact_product_bytes(x.m * run.scheme.parts, x.n),
                 request.scheme + " on " + std::to_string(x.m) + "x" + std::to_string(x.k) + " A and " + std::to_string(x.k) + "x" +
                     std::to_string(x.n) + " B" + (request.dump.empty() ? "" : " with --dump"));
  std::unique_ptr<TraceWriter> trace;
  if (!request.dump.empty()) trace = std::make_unique<TraceWriter>(request.dump, schemes::trace_header(run.scheme, x.source, request.seed));
  run.result = schemes::run_scheme(run.scheme, std::move(x.arrays), {.verify = run.verify, .threads = request.threads, .trace = trace.get(), .measure_accuracy = request.measure_accuracy});
  if (trace) trace->finish();
  return run;
}

}  // namespace ozref
