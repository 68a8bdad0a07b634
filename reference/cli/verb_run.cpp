// ozref run: a scheme on the CPU emulator, every stage verified against exact arithmetic, the
// result checked against the exact product; optionally the trace of every stage (--dump).
#include <optional>

#include "api/report_json.hpp"
#include "api/scheme_run.hpp"
#include "cli/report.hpp"
#include "cli/run_options.hpp"
#include "cli/stage_table.hpp"
#include "cli/verbs.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"
#include "io/npy.hpp"
#include "trace/trace.hpp"
#if OZREF_WITH_MPI
#include "common/error.hpp"
#include "mpi/distributed_run.hpp"
#include "mpi/mpi_world.hpp"
#endif

namespace ozref::cli {
namespace {

void print_report(std::ostream& out, const RunArgs& args, const SchemeRun& run) {
  const schemes::Scheme& s = run.scheme;
  const schemes::SchemeResult& r = run.result;
  if (args.json) {
    out << json_text(run_json(s, args.options.arch, run.source, r, verify_name(run.verify))) << "\n";
    return;
  }
  out << "ozref run: " << s.name << " on " << arch_of(s, args.options.arch) << ", " << s.m << "x" << s.n << "x" << s.k << " (" << run.source << "), options "
      << s.options.dump() << ", verify " << verify_name(run.verify) << "\n\n";
  print_stages(out, r, false);
  out << "\n  low-precision GEMMs: " << r.low_precision_gemms << "\n  exact (all stages verified, bound held): " << (r.exact ? "yes" : "NO")
      << "\n  pipeline: " << r.pipeline_seconds << " s, total (with the accuracy measurement): " << r.seconds << " s\n\n";
  print_metrics(out, "result against the exact product (rounded to FP64)", r.accuracy);
}

}  // namespace

// Under mpirun or srun: the run over every rank when it can be distributed; refused with more than
// one rank otherwise (R copies would race on their outputs). Null: run in this process.
std::optional<SchemeRun> run_over_ranks(const RunArgs& args) {
#if OZREF_WITH_MPI
  if (!mpi::active()) return std::nullopt;
  const std::string why = mpi::why_not_distributed(args.scheme, args.complex, !args.a.empty(), !args.dump.empty());
  if (why.empty())
    return mpi::run_distributed({.scheme = args.scheme, .options = scheme_options_of(args), .verify = args.verify, .threads = args.threads,
                                 .dump = {}, .seed = args.seed},
                                args.a, args.b, args.out);
  if (mpi::ranks() > 1) throw InputError(why + " (docs/scale.md)");
#endif
  (void)args;
  return std::nullopt;
}

int run_run(const RunArgs& args, std::ostream& out) {
  if (std::optional<SchemeRun> run = run_over_ranks(args)) {
    print_report(out, args, *run);
    return stages_exit_code(run->result);
  }
  if (!args.out.empty()) check_output_file(args.out, "--out", {args.a, args.b});
  if (!args.dump.empty()) check_trace_target(args.dump, "--dump");
  const SchemeRun run = run_named_scheme(
      {.scheme = args.scheme, .options = scheme_options_of(args), .verify = args.verify, .threads = args.threads, .dump = args.dump,
       .seed = args.seed},
      inputs_of(args));
  const schemes::SchemeResult& r = run.result;
  if (!args.out.empty()) write_npy(args.out, args.complex ? npy_from_complex(r.c, r.c_imag) : npy_from_matrix(r.c));
  print_report(out, args, run);
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
