// ozref check --a A.npy --b B.npy --c C.npy [--json] [--at-least BITS [--metric M]]: how close C
// is to the exact product, and, with a floor, whether it is close enough (exit 1 when not).
// An f8 C is compared with the product rounded to FP64, an f4 C with it rounded to FP32. With
// --device gpu the exact product is computed on the GPU (bit for bit the CPU's; exit 77 without one).
#include <optional>

#include "api/product_operands.hpp"
#include "api/report_json.hpp"
#include "cli/gpu_missing.hpp"
#include "common/error.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/gpu_exact.hpp"
#include "cli/options.hpp"
#include "cli/report.hpp"
#include "cli/timings_report.hpp"
#include "cli/verbs.hpp"
#include "common/phase_clock.hpp"
#include "io/json_text.hpp"
#include "io/npy.hpp"
#if OZREF_WITH_MPI
#include "mpi/distributed_verbs.hpp"
#include "mpi/mpi_world.hpp"
#endif

namespace ozref::cli {

namespace {
CheckOutcome checked(const CheckArgs& args) {
#if OZREF_WITH_MPI
  if (mpi::active()) {  // under mpirun or srun
    if (args.device == "gpu") throw InputError("check: --device gpu runs in one process, not under mpirun or srun");
    return mpi::check_distributed(args.a, args.b, args.c, args.threads);
  }
#endif
  std::optional<ProductOperands> p;
  NpyArray c;
  {
    const PhaseTimer timer(Phase::Read);
    p.emplace(load_product_operands(args.a, args.b));
    c = c_as_real(read_npy(args.c), *p, args.c);  // refused before the work
  }
  const Operands& ops = p->real;
  const ExactProduct e = args.device == "gpu" ? std::move(gpu_exact(ops.a, ops.b).sliced.product) : exact_gemm(ops.a, ops.b, {.threads = args.threads});
  return check_product_against(e, c, *p, args.c, args.threads);
}
}  // namespace

int run_check(const CheckArgs& args, std::ostream& out) {
  if (const int code = gpu_missing("check", args.device, out)) return code;
  std::optional<AccuracyGate> gate;
  if (args.at_least) gate = AccuracyGate{gate_metric_named(args.metric, "--metric"), *args.at_least};
  CheckOutcome r = checked(args);
  r.gate = gate;
  if (args.json) {
    out << json_text(check_json(r)) << "\n";
  } else {
    out << "C = " << args.c << " (" << r.c_precision << ") against the exact product of " << args.a << " and " << args.b
        << ", m = " << r.m << ", n = " << r.n << ", k = " << r.k << "\n";
    print_metrics(out, "accuracy", r.metrics);
    if (gate) out << "gate (--at-least " << *args.at_least << ") " << judge(r.metrics, *gate).message << "\n";
  }
  if (args.timings) print_timings();
  return gate && !judge(r.metrics, *gate).passed ? 1 : 0;
}

void add_check(CLI::App& app, Action& action) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* verb = app.add_subcommand("check", "compare a computed product C with the exact product A*B");
  verb->add_option("--a", args->a, "A, an m x k matrix (.npy, f8 or f4; c16 for a complex product)")->required();
  verb->add_option("--b", args->b, "B, a k x n matrix (.npy, f8 or f4; c16 for a complex product)")->required();
  verb->add_option("--c", args->c, "C, the m x n result to check (.npy, f8 or f4; c16 for a complex product)")->required();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  add_threads_option(verb, args->threads);
  verb->add_option("--device", args->device, "where the exact product is computed: cpu, or gpu (exit 77 without one)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->capture_default_str();
  verb->add_option("--at-least", args->at_least, "a CI gate: exit 1 when C has fewer correct bits than this (by --metric)")
      ->check(finite_in(-4000, 4000));
  verb->add_option("--metric", args->metric, "the gate's figure: maxnorm (the default) or elementwise")
      ->check(CLI::IsMember({"maxnorm", "elementwise"}));
  verb->add_flag("--timings", args->timings, "where the time went, phase by phase, on standard error (under MPI: over the ranks)");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_check(*args, out); }; });
}

}  // namespace ozref::cli
