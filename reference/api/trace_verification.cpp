#include "api/trace_verification.hpp"

#include "api/scheme_inputs.hpp"
#include "api/verify_level.hpp"
#include "common/error.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/runner.hpp"
#include "schemes/pipeline/trace_subject.hpp"

namespace ozref {
namespace {

schemes::Arrays inputs_of(const TraceVerificationRequest& request, const TraceSubject& trace, const schemes::Scheme& s) {
  if (!inputs_from_files(request)) return trace.inputs(s);
  SchemeInputs x = scheme_inputs_from_files(request.a, request.b, s.parts == 2);
  require_manifest_shape(x.m, x.n, x.k, s);
  return std::move(x.arrays);
}

}  // namespace

bool inputs_from_files(const TraceVerificationRequest& request) {
  if (request.a.empty() && request.b.empty()) return false;
  if (request.a.empty() || request.b.empty()) throw InputError("--a and --b go together");
  return true;
}

void require_manifest_shape(size_t m, size_t n, size_t k, const schemes::Scheme& s) {
  if (m != s.m || n != s.n || k != s.k)
    throw InputError("--a and --b are " + std::to_string(m) + "x" + std::to_string(k) + " and " + std::to_string(k) + "x" + std::to_string(n) +
                     " but the manifest says m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) + ", k = " + std::to_string(s.k));
}

std::string reproducers_folder(const TraceVerificationRequest& request) {
  return request.reproducers.empty() ? request.dir + "/reproducers" : request.reproducers;
}

TraceVerification verify_trace_folder(const TraceVerificationRequest& request) {
  Manifest manifest = read_manifest(request.dir);
  TraceVerification v{.scheme = schemes::scheme_of_manifest(manifest.json, manifest.path)};
  const schemes::Scheme& s = v.scheme;
  TraceSubject trace(std::move(manifest), s);
  schemes::Arrays inputs = inputs_of(request, trace, s);
  v.verify = verify_level(request.verify, s.m, s.n, s.k);
  v.result = schemes::run_scheme(
      s, std::move(inputs),
      {.verify = v.verify, .threads = request.threads, .subject = &trace,
       .reproducers = reproducers_folder(request)});
  return v;
}

}  // namespace ozref
