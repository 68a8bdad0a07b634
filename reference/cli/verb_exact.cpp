// ozref exact --a A.npy --b B.npy --out C.npy: the exact product, rounded once to FP64.
#include "api/operands.hpp"
#include "cli/options.hpp"
#include "cli/verbs.hpp"
#include "exact/exact_gemm.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"

namespace ozref::cli {

int run_exact(const ExactArgs& args, std::ostream& out) {
  check_output_file(args.out, "--out");  // before the work, not after it
  const Operands ops = load_operands(args.a, args.b);
  const ExactProduct e = exact_gemm(ops.a, ops.b, {.threads = args.threads});
  Matrix<double> c(e.rows, e.cols);
  c.data = e.nearest;
  write_npy(args.out, npy_from_matrix(c));
  out << "wrote " << args.out << ": " << e.rows << "x" << e.cols
      << " exact product, rounded to nearest-even FP64 (k = " << e.depth << ")\n";
  return 0;
}

void add_exact(CLI::App& app, Action& action) {
  auto args = std::make_shared<ExactArgs>();
  CLI::App* verb = app.add_subcommand("exact", "the exact product of two .npy matrices, correctly rounded to FP64");
  verb->add_option("--a", args->a, "A, an m x k matrix (.npy, f8 or f4)")->required();
  verb->add_option("--b", args->b, "B, a k x n matrix (.npy, f8 or f4)")->required();
  verb->add_option("--out", args->out, "where to write C (.npy, f8): a new file or a regular file to replace, written atomically")->required();
  add_threads_option(verb, args->threads);
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_exact(*args, out); }; });
}

}  // namespace ozref::cli
