// ozref run: a scheme on the CPU emulator, every stage verified against exact arithmetic, the
// result checked against the exact product; optionally the trace of every stage (--dump).
#include <nlohmann/json.hpp>

#include "cli/report.hpp"
#include "cli/run_options.hpp"
#include "cli/stage_table.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"
#include "io/npy.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/runner.hpp"

namespace ozref::cli {
namespace {

void print_report(std::ostream& out, const RunArgs& args, const schemes::Scheme& s, const std::string& source,
                  const schemes::SchemeResult& r, const char* verify) {
  // A scheme that models one machine names its architecture (gemmul8@2.0.14: sm_90).
  const std::string arch = s.resolved.contains("arch") ? s.resolved["arch"].get<std::string>() : args.arch;
  if (args.json) {
    nlohmann::json j = {{"scheme", s.name}, {"arch", arch}, {"m", s.m}, {"n", s.n}, {"k", s.k}, {"options", s.options},
                        {"resolved", s.resolved}, {"verify", verify}, {"source", source}, {"low_precision_gemms", r.low_precision_gemms},
                        {"stages", stages_json(r, false)}, {"exact", r.exact}, {"exactness_conditions", r.exactness_conditions},
                        {"accuracy", metrics_json(r.accuracy)}, {"pipeline_seconds", r.pipeline_seconds}, {"seconds", r.seconds}};
    out << json_text(j) << "\n";
    return;
  }
  out << "ozref run: " << s.name << " on " << arch << ", " << s.m << "x" << s.n << "x" << s.k << " (" << source << "), options "
      << s.options.dump() << ", verify " << verify << "\n\n";
  print_stages(out, r, false);
  out << "\n  low-precision GEMMs: " << r.low_precision_gemms << "\n  exact (all stages verified, bound held): " << (r.exact ? "yes" : "NO")
      << "\n  pipeline: " << r.pipeline_seconds << " s, total (with the accuracy measurement): " << r.seconds << " s\n\n";
  print_metrics(out, "result against the exact product (rounded to FP64)", r.accuracy);
}

}  // namespace

int run_run(const RunArgs& args, std::ostream& out) {
  if (!args.out.empty()) check_output_file(args.out, "--out");
  if (!args.dump.empty()) prepare_output_folder(args.dump, "--dump");
  SchemeInputs x = inputs_of(args);
  const schemes::Scheme s = schemes::build_scheme(args.scheme, scheme_options_of(args), x.m, x.n, x.k);
  const schemes::Verify verify = verify_level_of(args, x.m, x.n, x.k);
  std::unique_ptr<TraceWriter> trace;
  if (!args.dump.empty()) trace = std::make_unique<TraceWriter>(args.dump, schemes::trace_header(s, x.source, args.seed));
  const schemes::SchemeResult r = schemes::run_scheme(s, std::move(x.arrays), {.verify = verify, .threads = args.threads, .trace = trace.get()});
  if (trace) trace->finish();
  if (!args.out.empty()) write_npy(args.out, args.complex ? npy_from_complex(r.c, r.c_imag) : npy_from_matrix(r.c));
  print_report(out, args, s, x.source, r, verify_name(verify));
  return stages_exit_code(r);
}

void add_run(CLI::App& app, Action& action) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* verb = app.add_subcommand("run", "run an emulation scheme on the CPU emulator, verifying every stage");
  add_run_options(verb, args);
  verb->add_option("--dump", args->dump, "write the trace of every stage into this folder (docs/verify-trace.md)");
  verb->add_option("--out", args->out, "write C (.npy, f8)");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_run(*args, out); }; });
}

}  // namespace ozref::cli
