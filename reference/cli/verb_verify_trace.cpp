// ozref verify-trace DIR: verifies a trace written by any kernel, stage by stage, re-synchronised:
// the scheme is rebuilt from the manifest, each stage the trace holds is checked against its
// contract, and where the stage is a function of its inputs, against the CPU's recomputation from
// the trace's own inputs to it, bit for bit; a stage the trace lacks is computed by the CPU.
#include "api/report_json.hpp"
#include "api/trace_verification.hpp"
#include "cli/options.hpp"
#include "cli/report.hpp"
#include "cli/stage_table.hpp"
#include "cli/verbs.hpp"
#include "io/json_text.hpp"
#if OZREF_WITH_MPI
#include "mpi/distributed_verify_trace.hpp"
#include "mpi/mpi_world.hpp"
#endif

namespace ozref::cli {
namespace {

// Under mpirun or srun over every rank (docs/scale.md), else in this process.
TraceVerification verify(const TraceVerificationRequest& request) {
#if OZREF_WITH_MPI
  if (mpi::active()) return mpi::verify_trace_distributed(request);
#endif
  return verify_trace_folder(request);
}

}  // namespace

int run_verify_trace(const VerifyTraceArgs& args, std::ostream& out) {
  const TraceVerification v =
      verify({.dir = args.dir, .a = args.a, .b = args.b, .verify = args.verify, .reproducers = args.reproducers, .threads = args.threads});
  const schemes::Scheme& s = v.scheme;
  const schemes::SchemeResult& r = v.result;
  if (args.json) {
    out << json_text(verify_trace_json(args.dir, s, r)) << "\n";
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
  verb->add_option("--verify", args->verify, "none, cheap or full (default: full up to m*n*k = 2^25, else cheap; none: only the bit-for-bit comparison)");
  verb->add_option("--reproducers", args->reproducers, "where GEMM reproducers go (default: DIR/reproducers, made only when one is written)");
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  add_threads_option(verb, args->threads);
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_verify_trace(*args, out); }; });
}

}  // namespace ozref::cli
