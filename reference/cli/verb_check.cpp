// ozref check --a A.npy --b B.npy --c C.npy [--json]: how close C is to the exact product.
// An f8 C is compared with the product rounded to FP64, an f4 C with it rounded to FP32.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "cli/operands.hpp"
#include "cli/options.hpp"
#include "cli/report.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/metrics.hpp"
#include "io/json_text.hpp"
#include "io/npy.hpp"

namespace ozref::cli {

int run_check(const CheckArgs& args, std::ostream& out) {
  const Operands ops = load_operands(args.a, args.b);
  const NpyArray c = read_npy(args.c);
  if (c.shape.size() != 2 || c.shape[0] != ops.a.rows || c.shape[1] != ops.b.cols)
    throw InputError(args.c + ": C must be " + std::to_string(ops.a.rows) + "x" +
                     std::to_string(ops.b.cols) + " to match A and B");
  if (c.dtype != DType::F8 && c.dtype != DType::F4)
    throw InputError(args.c + ": expected dtype f8 or f4, got " + std::string(dtype_name(c.dtype)));
  const ExactProduct e = exact_gemm(ops.a, ops.b, {.threads = args.threads});
  AccuracyMetrics m;
  if (c.dtype == DType::F8) {
    m = measure(matrix_from_npy(c, args.c).data, e);
  } else {
    std::vector<float> cf(c.elements());
    // std::copy, not memcpy: an empty C's data() may be null, which memcpy must not be given
    std::copy(c.data.begin(), c.data.end(), reinterpret_cast<uint8_t*>(cf.data()));
    m = measure(cf, e);
  }
  const char* precision = c.dtype == DType::F8 ? "fp64" : "fp32";
  if (args.json) {
    nlohmann::json j = metrics_json(m);
    j["m"] = e.rows;
    j["n"] = e.cols;
    j["k"] = e.depth;
    j["c_precision"] = precision;
    out << json_text(j) << "\n";
  } else {
    out << "C = " << args.c << " (" << precision << ") against the exact product of " << args.a
        << " and " << args.b << ", m = " << e.rows << ", n = " << e.cols << ", k = " << e.depth
        << "\n";
    print_metrics(out, "accuracy", m);
  }
  return 0;
}

void add_check(CLI::App& app, Action& action) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* verb = app.add_subcommand("check", "compare a computed product C with the exact product A*B");
  verb->add_option("--a", args->a, "A, an m x k matrix (.npy, f8 or f4)")->required();
  verb->add_option("--b", args->b, "B, a k x n matrix (.npy, f8 or f4)")->required();
  verb->add_option("--c", args->c, "C, the m x n result to check (.npy, f8 or f4)")->required();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  add_threads_option(verb, args->threads);
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_check(*args, out); }; });
}

}  // namespace ozref::cli
