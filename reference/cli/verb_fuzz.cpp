// ozref fuzz: property-based testing of a GEMM (docs/fuzz.md): a subject run on generated cases,
// its C checked against the exact product, a failing case shrunk into a reproducer folder.
#include <filesystem>
#include <iostream>

#include "cli/gpu_missing.hpp"
#include "cli/options.hpp"
#include "cli/run_options.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "exact/gpu_exact.hpp"
#include "fuzz/session.hpp"
#include "io/atomic_file.hpp"

namespace ozref::cli {
namespace {

// This executable's absolute path, so that the replay command runs the same ozref.
std::string own_executable() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::string("ozref") : self.string();
}

}  // namespace

int run_fuzz(const FuzzArgs& args, std::ostream& out, std::ostream& progress) {
  if (const int code = gpu_missing("fuzz", args.exact_device, out, "--exact-device")) return code;
  fuzz::Session s = fuzz::session_of(args.subject, args.options, scheme_options_of(args.scheme));
  s.ozref = own_executable();
  if (args.exact_device == "gpu") {
    s.campaign.properties.exact_device = "gpu";
    s.campaign.properties.oracle = [](const Matrix<double>& a, const Matrix<double>& b) { return gpu_exact(a, b).sliced.product; };
  }
  const std::unique_ptr<fuzz::Subject> subject = fuzz::make_subject(s.subject);
  const fuzz::CampaignResult r = fuzz::run_session(s, *subject, progress).campaign;
  out << "ozref fuzz: " << r.cases << " cases (seed " << s.campaign.seed << "), " << r.refused << " refused, " << r.seconds << " s, "
      << (r.finding ? "1 failed" : "0 failed") << "\n";
  if (!r.finding) return 0;
  const fuzz::Finding& f = *r.finding;
  out << "ozref fuzz: FAILED " << fuzz::property_name(*f.original_verdict.failed) << " on " << f.original.origin() << ", generator "
      << f.original.generator << ": " << f.shrunk.verdict.detail << "; shrunk from " << f.original.m() << "x" << f.original.n() << "x" << f.original.k()
      << " to " << f.shrunk.a.rows << "x" << f.shrunk.b.cols << "x" << f.shrunk.a.cols << "\n";
  if (!args.options.out.empty()) out << "ozref fuzz: reproducer in " << args.options.out << " (replay: sh " << args.options.out << "/replay.sh)\n";
  return 1;
}

void add_fuzz(CLI::App& app, Action& action) {
  auto args = std::make_shared<FuzzArgs>();
  CLI::App* verb = app.add_subcommand("fuzz", "property-based testing of a GEMM against the exact product, with shrinking (docs/fuzz.md)");
  verb->add_option("--subject", args->subject, "a scheme (gemmul8@2.0.14, ...), exact, exec:CMD or dlopen:LIB:SYMBOL[:rowmajor|colmajor]")->required();
  add_declared_scheme_options(verb, args->scheme.options);  // a scheme subject's options, as ozref run takes them
  add_finite_option(verb, "--at-least", args->options.at_least.emplace(), 0, 1100, "accuracy: the floor in correct bits");
  verb->add_option("--metric", args->options.metric, "accuracy's metric: maxnorm or elementwise")->capture_default_str();
  verb->add_option("--property", args->options.properties, "comma-separated: accuracy, exactness, correctly-rounded, determinism, specials, no-crash (default: accuracy with --at-least, specials, no-crash)");
  verb->add_option("--generators", args->options.generators, "comma-separated generators (default: all; docs/fuzz.md lists them)");
  add_finite_option(verb, "--seconds", args->options.seconds, 0, 1e9, "the time budget of generated cases")->capture_default_str();
  add_integer_option(verb, "--cases", args->options.cases, uint64_t{0}, UINT64_MAX, "at most this many generated cases (0: no limit but the time)");
  add_integer_option(verb, "--first-case", args->options.first_case, uint64_t{0}, UINT64_MAX, "the index of the first generated case");
  add_integer_option(verb, "--seed", args->options.seed.emplace(), uint64_t{0}, UINT64_MAX, "the campaign's seed (default: from the clock; printed)");
  verb->add_option("--out", args->options.out, "the reproducer folder of a finding");
  verb->add_option("--replay", args->options.replay, "a case folder (A.npy, B.npy), or a folder of them, checked first");
  add_integer_option(verb, "--max-m", args->options.max_m, size_t{1}, size_t{4096}, "largest m")->capture_default_str();
  add_integer_option(verb, "--max-n", args->options.max_n, size_t{1}, size_t{4096}, "largest n")->capture_default_str();
  add_integer_option(verb, "--max-k", args->options.max_k, size_t{1}, size_t{1 << 20}, "largest k")->capture_default_str();
  add_finite_option(verb, "--timeout", args->options.timeout, 0.001, 1e6, "exec and dlopen subjects: seconds before a run is a hang")->capture_default_str();
  add_finite_option(verb, "--shrink-seconds", args->options.shrink_seconds, 0, 1e9, "the shrinking budget")->capture_default_str();
  verb->add_option("--exact-device", args->exact_device, "where the exact product (the oracle) is computed: cpu, or gpu (exit 77 without one)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->capture_default_str();
  add_integer_option(verb, "--threads", args->options.threads, 0, kMaxThreads, "threads of in-process subjects and the oracle (default 1; 0: all cores)");
  verb->callback([args, verb, &action] {
    // Options not given keep no value: emplace() above only gave CLI11 a target.
    if (verb->count("--at-least") == 0) args->options.at_least.reset();
    if (verb->count("--seed") == 0) args->options.seed.reset();
    action = [args](std::ostream& out) { return run_fuzz(*args, out, std::cerr); };
  });
}

}  // namespace ozref::cli
