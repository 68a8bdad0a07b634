// api::fuzz (include/ozref/fuzz.hpp): what `ozref fuzz` runs (session.hpp), for a named subject
// or a caller's function. It lives with the fuzzer, above api/ whose scheme runs and gates the
// fuzzer uses.
#include "ozref/fuzz.hpp"

#include <iostream>

#include "api/public_types.hpp"
#include "common/error.hpp"
#include "fuzz/function_subject.hpp"
#include "fuzz/generators.hpp"
#include "fuzz/session.hpp"

namespace ozref::api {
namespace {

FuzzResult fuzz_with(const fuzz::Session& s, fuzz::Subject& subject) {
  const fuzz::SessionResult r = fuzz::run_session(s, subject, std::cerr);
  return {.failed = r.campaign.finding.has_value(), .cases = r.campaign.cases, .refused = r.campaign.refused, .seed = s.campaign.seed,
          .json = r.report.dump()};
}

}  // namespace

std::vector<std::string> generator_names() { return fuzz::generator_names(); }

GeneratedOperands generate(const std::string& generator, size_t m, size_t n, size_t k, uint64_t seed) {
  constexpr size_t kMaxElements = size_t{1} << 26;
  if (m == 0 || n == 0 || k == 0) throw InputError("generate: m, n and k must be at least 1, got " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
  if (m > kMaxElements / k || n > kMaxElements / k)
    throw InputError("generate: A (m x k) and B (k x n) are limited to 2^26 elements each, got " + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k));
  fuzz::FuzzCase c = fuzz::generate_operands(generator, m, n, k, seed);
  return {{c.a.rows, c.a.cols, std::move(c.a.data)}, {c.b.rows, c.b.cols, std::move(c.b.data)}, std::move(c.generator)};
}

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
