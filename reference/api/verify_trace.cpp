// api::verify_trace (include/ozref/verify_trace.hpp): what `ozref verify-trace DIR` does.
#include "ozref/verify_trace.hpp"

#include "api/public_types.hpp"
#include "api/report_json.hpp"
#include "api/trace_verification.hpp"
#include "api/verify_level.hpp"

namespace ozref::api {

RunResult verify_trace(const std::string& dir, const VerifyTraceOptions& options) {
  require_threads(options.threads);
  TraceVerification v = verify_trace_folder(
      {.dir = dir, .a = options.a, .b = options.b, .verify = options.verify, .reproducers = options.reproducers, .threads = options.threads});
  const schemes::Scheme& s = v.scheme;
  return public_run_result(s, v.result, verify_name(v.verify), verify_trace_json(dir, s, v.result));
}

RunResult verify_trace(const std::string& dir) { return verify_trace(dir, VerifyTraceOptions()); }

}  // namespace ozref::api
