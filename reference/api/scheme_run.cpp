#include "api/scheme_run.hpp"

#include <memory>

#include "api/verify_level.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/runner.hpp"
#include "trace/trace.hpp"

namespace ozref {

SchemeRun run_named_scheme(const SchemeRunRequest& request, SchemeInputs x) {
  const schemes::SchemeOptions options = schemes::with_input_resolved_options(request.scheme, request.options, x.arrays, x.m, x.n, x.k);
  SchemeRun run{.scheme = schemes::build_scheme(request.scheme, options, x.m, x.n, x.k),
                .verify = verify_level(request.verify, x.m, x.n, x.k),
                .source = x.source};
  std::unique_ptr<TraceWriter> trace;
  if (!request.dump.empty()) trace = std::make_unique<TraceWriter>(request.dump, schemes::trace_header(run.scheme, x.source, request.seed));
  run.result = schemes::run_scheme(run.scheme, std::move(x.arrays), {.verify = run.verify, .threads = request.threads, .trace = trace.get(), .measure_accuracy = request.measure_accuracy});
  if (trace) trace->finish();
  return run;
}

}  // namespace ozref
