// api::fuzz (include/ozref/fuzz.hpp): what `ozref fuzz` runs (fuzz/session.hpp), for a named
// subject or a caller's function.
#include "ozref/fuzz.hpp"

#include <iostream>

#include "api/public_types.hpp"
#include "fuzz/function_subject.hpp"
#include "fuzz/session.hpp"

namespace ozref::api {
namespace {

FuzzResult fuzz_with(const fuzz::Session& s, fuzz::Subject& subject) {
  const fuzz::SessionResult r = fuzz::run_session(s, subject, std::cerr);
  return {.failed = r.campaign.finding.has_value(), .cases = r.campaign.cases, .refused = r.campaign.refused, .seed = s.campaign.seed,
          .json = r.report.dump()};
}

}  // namespace

FuzzResult fuzz(const std::string& subject, const FuzzOptions& options) {
  require_threads(options.threads);
  const fuzz::Session s = fuzz::session_of(subject, options, scheme_options_of(options.scheme, false));
  return fuzz_with(s, *fuzz::make_subject(s.subject));
}

FuzzResult fuzz(const GemmFunction& subject, const FuzzOptions& options) {
  require_threads(options.threads);
  const fuzz::Session s = fuzz::session_of("a function", options, {});
  return fuzz_with(s, *fuzz::make_function_subject(subject));
}

}  // namespace ozref::api
