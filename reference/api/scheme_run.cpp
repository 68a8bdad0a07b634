#include "api/scheme_run.hpp"

#include <memory>

#include "api/verify_level.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/runner.hpp"
#include "trace/trace.hpp"

namespace ozref {

SchemeRun run_named_scheme(const SchemeRunRequest& request, SchemeInputs x) {
  SchemeRun run{.scheme = schemes::build_scheme(request.scheme, request.options, x.m, x.n, x.k),
                .verify = verify_level(request.verify, x.m, x.n, x.k),
                .source = x.source};
  std::unique_ptr<TraceWriter> trace;
  if (!request.dump.empty()) trace = std::make_unique<TraceWriter>(request.dump, schemes::trace_header(run.scheme, x.source, request.seed));
  run.result = schemes::run_scheme(run.scheme, std::move(x.arrays), {.verify = run.verify, .threads = request.threads, .trace = trace.get()});
  if (trace) trace->finish();
  return run;
}

}  // namespace ozref
