// ozref verify-trace DIR: verifies a trace written by any kernel, stage by stage, re-synchronised:
// the scheme is rebuilt from the manifest, each stage the trace holds is checked against its
// contract, and where the stage is a function of its inputs, against the CPU's recomputation from
// the trace's own inputs to it, bit for bit; a stage the trace lacks is computed by the CPU.
#include <nlohmann/json.hpp>

#include "cli/report.hpp"
#include "cli/run_options.hpp"
#include "cli/stage_table.hpp"
#include "cli/verbs.hpp"
#include "cli/options.hpp"
#include "common/error.hpp"
#include "io/json_text.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/runner.hpp"
#include "trace/trace_subject.hpp"

namespace ozref::cli {
namespace {

schemes::Arrays inputs_of(const VerifyTraceArgs& args, const TraceSubject& trace, const schemes::Scheme& s) {
  if (args.a.empty() && args.b.empty()) return trace.inputs(s);
  if (args.a.empty() || args.b.empty()) throw InputError("--a and --b go together");
  SchemeInputs x = scheme_inputs_from_files(args.a, args.b, s.parts == 2);
  if (x.m != s.m || x.n != s.n || x.k != s.k)
    throw InputError("--a and --b are " + std::to_string(x.m) + "x" + std::to_string(x.k) + " and " + std::to_string(x.k) + "x" +
                     std::to_string(x.n) + " but the manifest says m = " + std::to_string(s.m) + ", n = " + std::to_string(s.n) +
                     ", k = " + std::to_string(s.k));
  return std::move(x.arrays);
}

}  // namespace

int run_verify_trace(const VerifyTraceArgs& args, std::ostream& out) {
  Manifest manifest = read_manifest(args.dir);
  const schemes::Scheme s = schemes::scheme_of_manifest(manifest.json, manifest.path);
  TraceSubject trace(std::move(manifest), s);
  schemes::Arrays inputs = inputs_of(args, trace, s);
  const schemes::Verify verify = args.verify.empty() ? default_verify(s.m, s.n, s.k) : schemes::parse_verify(args.verify);
  const schemes::SchemeResult r = schemes::run_scheme(
      s, std::move(inputs),
      {.verify = verify, .threads = args.threads, .subject = &trace,
       .reproducers = args.reproducers.empty() ? args.dir + "/reproducers" : args.reproducers});
  if (args.json) {
    out << json_text({{"trace", args.dir}, {"scheme", s.name}, {"options", s.options}, {"m", s.m}, {"n", s.n}, {"k", s.k},
                      {"stages", stages_json(r, true)}, {"exact", r.exact}, {"identical", r.identical}, {"accuracy", metrics_json(r.accuracy)}})
        << "\n";
  } else {
    out << "ozref verify-trace: " << args.dir << ": " << s.name << " " << s.options.dump() << ", " << s.m << "x" << s.n << "x" << s.k
        << "\n\n";
    print_stages(out, r, true);
    out << "\n";
    print_metrics(out, "the trace's result against the exact product", r.accuracy);
  }
  return stages_exit_code(r);
}

void add_verify_trace(CLI::App& app, Action& action) {
  auto args = std::make_shared<VerifyTraceArgs>();
  CLI::App* verb = app.add_subcommand("verify-trace", "verify a kernel's trace stage by stage against the scheme's contracts and the CPU");
  verb->add_option("dir", args->dir, "trace folder (manifest.json and the stage arrays; docs/verify-trace.md)")->required();
  verb->add_option("--a", args->a, "A (.npy) when the trace holds no input stage");
  verb->add_option("--b", args->b, "B (.npy) when the trace holds no input stage");
  verb->add_option("--verify", args->verify, "cheap or full (default: full up to m*n*k = 2^25, else cheap)");
  verb->add_option("--reproducers", args->reproducers, "where GEMM reproducers go (default: DIR/reproducers, made only when one is written)");
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  add_threads_option(verb, args->threads);
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_verify_trace(*args, out); }; });
}

}  // namespace ozref::cli
