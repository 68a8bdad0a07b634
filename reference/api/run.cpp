// api::run (include/ozref/run.hpp): what `ozref run --a A.npy --b B.npy` computes and reports.
#include "ozref/run.hpp"

#include "api/public_types.hpp"
#include "api/report_json.hpp"
#include "api/scheme_run.hpp"
#include "api/verify_level.hpp"
#include "trace/trace.hpp"

namespace ozref::api {

RunResult run(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const RunOptions& options) {
  require_threads(options.threads);
  if (!options.dump.empty()) check_trace_target(options.dump, "dump");
  const bool complex = is_complex(a, b);
  SchemeRun r = run_named_scheme({.scheme = scheme, .options = scheme_options_of(options.scheme, complex), .verify = options.verify,
                                  .threads = options.threads, .dump = options.dump},
                                 scheme_inputs_of(a, b));
  const char* verify = verify_name(r.verify);
  const nlohmann::json json = run_json(r.scheme, options.scheme.arch, r.source, r.result, verify);
  return public_run_result(r.scheme, r.result, verify, json);
}

RunResult run(const std::string& scheme, const ArrayRef& a, const ArrayRef& b) { return run(scheme, a, b, RunOptions()); }

std::vector<std::string> schemes() {
  std::vector<std::string> names;
  for (const schemes::SchemeEntry& e : schemes::scheme_registry()) names.push_back(e.name);
  return names;
}

}  // namespace ozref::api
