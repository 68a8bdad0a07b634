// ozref exact --a A.npy --b B.npy --out C.npy: the exact product, rounded once to FP64.
#include "api/operands.hpp"
#include "common/phase_clock.hpp"
#include "cli/options.hpp"
#include "cli/timings_report.hpp"
#include "cli/verbs.hpp"
#include "exact/exact_gemm.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#if OZREF_WITH_MPI
#include "mpi/distributed_verbs.hpp"
#include "mpi/mpi_world.hpp"
#endif

namespace ozref::cli {

namespace {
void print_written(std::ostream& out, const std::string& path, size_t m, size_t n, size_t k) {
  out << "wrote " << path << ": " << m << "x" << n << " exact product, rounded to nearest-even FP64 (k = " << k << ")\n";
}
}  // namespace

int run_exact(const ExactArgs& args, std::ostream& out) {
#if OZREF_WITH_MPI
  if (mpi::active()) {  // under mpirun or srun: every rank computes and writes its block of C
    const mpi::ProductShape s = mpi::exact_distributed(args.a, args.b, args.out, args.threads);
    print_written(out, args.out, s.m, s.n, s.k);
    if (args.timings) print_timings();
    return 0;
  }
#endif
  check_output_file(args.out, "--out", {args.a, args.b});  // before the work, not after it
  const Operands ops = [&] {
    const PhaseTimer timer(Phase::Read);
    return load_operands(args.a, args.b);
  }();
  const ExactProduct e = exact_gemm(ops.a, ops.b, {.threads = args.threads});
  {
    const PhaseTimer timer(Phase::Write);
    Matrix<double> c;
    c.rows = e.rows;
    c.cols = e.cols;
    c.data.assign(e.nearest.begin(), e.nearest.end());
    write_npy(args.out, npy_from_matrix(c));
  }
  print_written(out, args.out, e.rows, e.cols, e.depth);
  if (args.timings) print_timings();
  return 0;
}

void add_exact(CLI::App& app, Action& action) {
  auto args = std::make_shared<ExactArgs>();
  CLI::App* verb = app.add_subcommand("exact", "the exact product of two .npy matrices, correctly rounded to FP64");
  verb->add_option("--a", args->a, "A, an m x k matrix (.npy, f8 or f4)")->required();
  verb->add_option("--b", args->b, "B, a k x n matrix (.npy, f8 or f4)")->required();
  verb->add_option("--out", args->out, "where to write C (.npy, f8): a new file or a regular file to replace, written atomically")->required();
  add_threads_option(verb, args->threads);
  verb->add_flag("--timings", args->timings, "where the time went, phase by phase, on standard error (under MPI: over the ranks)");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_exact(*args, out); }; });
}

}  // namespace ozref::cli
