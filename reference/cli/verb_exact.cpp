// ozref exact --a A.npy --b B.npy --out C.npy [--device gpu] [--json]: the exact product, rounded
// once to FP64, on the CPU or on the GPU (bit for bit the same; exit 77 with a line saying why when
// there is no usable GPU).
#include <optional>

#include "api/product_operands.hpp"
#include "common/error.hpp"
#include "common/phase_clock.hpp"
#include "cli/gpu_missing.hpp"
#include "cli/options.hpp"
#include "cli/timings_report.hpp"
#include "cli/verbs.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/gpu_exact.hpp"
#include "io/json_text.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#if OZREF_WITH_MPI
#include "mpi/distributed_verbs.hpp"
#include "mpi/mpi_world.hpp"
#endif

namespace ozref::cli {

namespace {
void print_written(std::ostream& out, const std::string& path, size_t m, size_t n, size_t k, bool complex = false) {
  out << "wrote " << path << ": " << m << "x" << n << (complex ? " complex" : "") << " exact product, rounded to nearest-even FP64"
      << (complex ? " part by part" : "") << " (k = " << k << ")\n";
}

// What ran: the CPU's method, or the GPU's slices, moduli and GEMMs (docs/exact.md).
nlohmann::json exact_json(const ExactArgs& args, const ProductOperands& ops, const ExactProduct& e, const GpuExactProduct* gpu) {
  nlohmann::json j = {{"out", args.out}, {"m", ops.m}, {"n", ops.n}, {"k", ops.k}, {"complex", ops.complex}, {"device", gpu ? gpu->device : "cpu"},
                      {"moduli", e.moduli}, {"panels", e.panels}};
  if (!gpu) {
    j["direct_path"] = e.direct_path;
    return j;
  }
  const SlicePlan& p = gpu->sliced.plan;
  j["slices_a"] = p.slices_a, j["slices_b"] = p.slices_b, j["slice_width"] = p.width, j["pair_bits"] = p.pair_bits;
  j["depth_blocks"] = p.depth_blocks, j["slice_pairs"] = p.pairs, j["int8_gemms"] = p.gemms(), j["gpu_seconds"] = gpu->gpu_seconds;
  j["gemm"] = gpu->gemm;
  const GpuExactPhases& t = gpu->phases;
  j["gpu_phases"] = {{"setup", t.setup},   {"upload", t.upload}, {"residues", t.residues}, {"gemms", t.gemms},
                     {"crt", t.crt},       {"round", t.round},   {"download", t.download}, {"specials", t.specials}};
  return j;
}

void print_gpu_plan(std::ostream& out, const GpuExactProduct& g) {
  const SlicePlan& p = g.sliced.plan;
  out << "on " << g.device << ": " << p.slices_a << "x" << p.slices_b << " slices (width " << (p.width ? std::to_string(p.width) : "whole line")
      << "), " << g.sliced.product.moduli << " int8 moduli, " << p.pairs << " slice pairs and depth blocks, " << p.gemms() << " int8 GEMMs, "
      << g.panels << " panels, " << g.gpu_seconds << " s on the GPU (GEMMs: " << g.gemm << ")\n";
}
}  // namespace

int run_exact(const ExactArgs& args, std::ostream& out) {
  if (const int code = gpu_missing("exact", args.device, out)) return code;
#if OZREF_WITH_MPI
  if (mpi::active()) {  // under mpirun or srun: every rank computes and writes its block of C
    if (args.device == "gpu") throw InputError("exact: --device gpu runs in one process, not under mpirun or srun");
    const mpi::ProductShape s = mpi::exact_distributed(args.a, args.b, args.out, args.threads);
    print_written(out, args.out, s.m, s.n, s.k);
    if (args.timings) print_timings();
    return 0;
  }
#endif
  check_output_file(args.out, "--out", {args.a, args.b});  // before the work, not after it
  const ProductOperands p = [&] {
    const PhaseTimer timer(Phase::Read);
    return load_product_operands(args.a, args.b);
  }();
  const Operands& ops = p.real;
  std::optional<GpuExactProduct> gpu;
  if (args.device == "gpu") gpu.emplace(gpu_exact(ops.a, ops.b));
  const ExactProduct e = gpu ? std::move(gpu->sliced.product) : exact_gemm(ops.a, ops.b, {.threads = args.threads});
  {
    const PhaseTimer timer(Phase::Write);
    write_npy(args.out, product_npy(e, p.complex));
  }
  if (args.json) {
    out << json_text(exact_json(args, p, e, gpu ? &*gpu : nullptr)) << "\n";
  } else {
    print_written(out, args.out, p.m, p.n, p.k, p.complex);
    if (gpu) print_gpu_plan(out, *gpu);
  }
  if (args.timings) print_timings();
  return 0;
}

void add_exact(CLI::App& app, Action& action) {
  auto args = std::make_shared<ExactArgs>();
  CLI::App* verb = app.add_subcommand("exact", "the exact product of two .npy matrices, correctly rounded to FP64");
  verb->add_option("--a", args->a, "A, an m x k matrix (.npy, f8 or f4; c16 for a complex product)")->required();
  verb->add_option("--b", args->b, "B, a k x n matrix (.npy, f8 or f4; c16 for a complex product)")->required();
  verb->add_option("--out", args->out, "where to write C (.npy, f8; c16 for a complex product): a new file or a regular file to replace, written atomically")->required();
  add_threads_option(verb, args->threads);
  verb->add_option("--device", args->device, "cpu, or gpu: the same product computed on the GPU (exit 77 without one)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->capture_default_str();
  verb->add_flag("--json", args->json, "one JSON object on standard output: the shape and what ran (moduli, slices, GEMMs)");
  verb->add_flag("--timings", args->timings, "where the time went, phase by phase, on standard error (under MPI: over the ranks)");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_exact(*args, out); }; });
}

}  // namespace ozref::cli
