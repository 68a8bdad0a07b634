// api::verify_stages (include/ozref/verify_stages.hpp): verify-trace's run on arrays in memory.
#include "ozref/verify_stages.hpp"

#include "api/public_types.hpp"
#include "api/report_json.hpp"
#include "api/verify_level.hpp"
#include "schemes/pipeline/memory_subject.hpp"
#include "schemes/pipeline/runner.hpp"

namespace ozref::api {

RunResult verify_stages(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const std::vector<StageArray>& stages,
                        const VerifyStagesOptions& options) {
  require_threads(options.threads);
  SchemeInputs x = scheme_inputs_of(a, b);
  const schemes::SchemeOptions resolved =
      schemes::with_input_resolved_options(scheme, kernel_scheme_options_of(options.scheme, is_complex(a, b)), x.arrays, x.m, x.n, x.k);
  const schemes::Scheme s = schemes::build_scheme(scheme, resolved, x.m, x.n, x.k);
  schemes::MemorySubject subject(s);
  for (const StageArray& given : stages) subject.add(given.stage, given.array, npy_of(given.data));
  subject.require_whole_stages();
  const schemes::Verify verify = verify_level(options.verify, s.m, s.n, s.k);
  schemes::SchemeResult r = schemes::run_scheme(
      s, std::move(x.arrays), {.verify = verify, .threads = options.threads, .subject = &subject, .reproducers = options.reproducers});
  nlohmann::json json = verify_trace_json("", s, r);
  json["trace"] = nullptr;  // arrays in memory
  return public_run_result(s, r, verify_name(verify), json);
}

RunResult verify_stages(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const std::vector<StageArray>& stages) {
  return verify_stages(scheme, a, b, stages, VerifyStagesOptions());
}

}  // namespace ozref::api
