// ozref demo: the built-in default problem. A random pair of matrices (seeded, printed), their
// exact product, and a check of plain FP64 and FP32 GEMM (OpenBLAS DGEMM and SGEMM) against it.
#include <climits>
#include <nlohmann/json.hpp>

#include "api/operands.hpp"
#include "cli/options.hpp"
#include "cli/report.hpp"
#include "cli/verbs.hpp"
#include "common/blas.hpp"
#include "common/distributions.hpp"
#include "common/memory_budget.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/metrics.hpp"
#include "io/json_text.hpp"

namespace ozref::cli {

int run_demo(const DemoArgs& args, std::ostream& out) {
  // A and B with their FP32 copies (float and widened), the two results, the two exact products.
  const double inputs = double(args.m) * double(args.k) + double(args.k) * double(args.n);
  require_memory(inputs * (8 + 4 + 8) + double(args.m) * double(args.n) * (8 + 4) + 2 * exact_product_bytes(args.m, args.n),
                 "--m " + std::to_string(args.m) + " --n " + std::to_string(args.n) + " --k " + std::to_string(args.k));
  Rng rng(args.seed);
  const Distribution dist{Distribution::Phi, args.phi};
  const Matrix<double> a = random_matrix(args.m, args.k, dist, rng);
  const Matrix<double> b = random_matrix(args.k, args.n, dist, rng);
  const int m = int(args.m), n = int(args.n), k = int(args.k);

  std::vector<double> c64(args.m * args.n, std::nan(""));
  cblas_dgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, m, n, k, 1.0, a.data.data(), k, b.data.data(), n, 0.0,
              c64.data(), n);
  const ExactProduct e = exact_gemm(a, b, {.threads = args.threads});
  const AccuracyMetrics dgemm = measure(c64, e);

  // FP32 GEMM runs on FP32 inputs, so it is checked against the exact product of those inputs.
  Matrix<float> a32(args.m, args.k), b32(args.k, args.n);
  Matrix<double> a32w(args.m, args.k), b32w(args.k, args.n);
  for (size_t i = 0; i < a.size(); ++i) a32w.data[i] = a32.data[i] = static_cast<float>(a.data[i]);
  for (size_t i = 0; i < b.size(); ++i) b32w.data[i] = b32.data[i] = static_cast<float>(b.data[i]);
  std::vector<float> c32(args.m * args.n, std::nanf(""));
  cblas_sgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, m, n, k, 1.0f, a32.data.data(), k, b32.data.data(), n,
              0.0f, c32.data(), n);
  const ExactProduct e32 = exact_gemm(a32w, b32w, {.threads = args.threads});
  const AccuracyMetrics sgemm = measure(c32, e32);

  if (args.json) {
    nlohmann::json j = {{"m", args.m},        {"n", args.n},
                        {"k", args.k},        {"seed", args.seed},
                        {"distribution", to_string(dist)},
                        {"exact_moduli", e.moduli},
                        {"dgemm", metrics_json(dgemm)},
                        {"sgemm", metrics_json(sgemm)}};
    out << json_text(j) << "\n";
    return 0;
  }
  out << "ozref demo: seed " << args.seed << ", A " << args.m << "x" << args.k << " and B "
      << args.k << "x" << args.n << " drawn from " << to_string(dist) << "\n"
      << "exact product: "
      << (e.direct_path ? "direct path"
                        : "modular path, " + std::to_string(e.moduli) + " residue GEMMs")
      << "\n\n";
  print_metrics(out, "OpenBLAS DGEMM against the exact product (rounded to FP64)", dgemm);
  out << "\n";
  print_metrics(out, "OpenBLAS SGEMM against the exact product of the FP32 inputs (rounded to FP32)", sgemm);
  return 0;
}

void add_demo(CLI::App& app, Action& action) {
  auto args = std::make_shared<DemoArgs>();
  CLI::App* verb = app.add_subcommand("demo", "the built-in default problem: exact product, and FP64/FP32 GEMM checked against it");
  constexpr size_t kMaxDim = INT_MAX;  // BLAS takes int dimensions
  add_integer_option(verb, "--m", args->m, size_t{1}, kMaxDim, "rows of A")->capture_default_str();
  add_integer_option(verb, "--n", args->n, size_t{1}, kMaxDim, "columns of B")->capture_default_str();
  add_integer_option(verb, "--k", args->k, size_t{1}, kMaxDim, "inner dimension")->capture_default_str();
  add_finite_option(verb, "--phi", args->phi, 0, kMaxPhi, "spread of (rand - 0.5) * exp(phi * randn)")->capture_default_str();
  add_integer_option(verb, "--seed", args->seed, uint64_t{0}, UINT64_MAX, "the PRNG seed")->capture_default_str();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  add_threads_option(verb, args->threads);
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_demo(*args, out); }; });
}

}  // namespace ozref::cli
