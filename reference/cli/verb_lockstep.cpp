// ozref lockstep: a scheme on the GPU twins of its stages (device/) and on the CPU, every stage
// compared bit for bit: re-synchronised (both sides fed the same inputs at every stage; the
// default) or free-running (each side its own pipeline). Exit 77 with a message without a GPU.
#include "api/lockstep_run.hpp"
#include "cli/mma_lockstep.hpp"
#include "cli/report.hpp"
#include "cli/run_options.hpp"
#include "cli/stage_table.hpp"
#include "cli/verbs.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"

namespace ozref::cli {
namespace {

void print_lockstep(std::ostream& out, const LockstepArgs& args, const LockstepRun& run) {
  if (args.run.json) {
    out << json_text(lockstep_json(run, args.lockstep, args.gemm)) << "\n";
    return;
  }
  const schemes::Scheme& s = run.run.scheme;
  const schemes::SchemeResult& r = run.run.result;
  out << "ozref lockstep: " << s.name << " " << s.options.dump() << ", " << s.m << "x" << s.n << "x" << s.k << " (" << run.run.source
      << ") on " << run.gpu.device << ", " << args.lockstep << ", GEMMs through " << args.gemm << "\n\n";
  print_stages(out, r, true);
  out << "\n  every compared stage bit-identical: " << (r.identical ? "yes" : "NO") << "\n\n";
  print_metrics(out, "the GPU's result against the exact product", r.accuracy);
}

}  // namespace

int run_lockstep(const LockstepArgs& args, std::ostream& out) {
  if (args.mma_level) return run_mma_lockstep(args, out);
  const schemes::Lockstep mode = lockstep_mode(args.lockstep);
  if (!args.run.dump.empty()) prepare_output_folder(args.run.dump, "--dump");
  const RunArgs& a = args.run;
  const LockstepRun run = lockstep_named_scheme(
      {.run = {.scheme = a.scheme, .options = scheme_options_of(a), .verify = a.verify, .threads = a.threads, .dump = a.dump, .seed = a.seed},
       .mode = mode, .gemm = args.gemm, .fault = args.fault},
      inputs_of(a));
  if (!run.gpu.available) {
    out << "ozref lockstep: " << run.gpu.why_not << "; the lockstep needs an sm_90 GPU (nothing was run)\n";
    return 77;
  }
  print_lockstep(out, args, run);
  return stages_exit_code(run.run.result);
}

void add_lockstep(CLI::App& app, Action& action) {
  auto args = std::make_shared<LockstepArgs>();
  auto run = std::shared_ptr<RunArgs>(args, &args->run);
  CLI::App* verb = app.add_subcommand("lockstep", "run a scheme on the GPU twins of its stages and on the CPU, comparing every stage bit for bit");
  add_run_options(verb, run);
  verb->add_option("--lockstep", args->lockstep, "resync (both sides fed the same inputs at every stage) or free (each side its own pipeline)")
      ->capture_default_str();
  verb->add_option("--gemm", args->gemm, "the GPU's GEMM stages: mma (ozref's kernels on the instruction), cublaslt, or wgmma-fused (ozaki2-int8, rare: reduce on the wgmma kernel with the reduction fused)")->capture_default_str();
  verb->add_option("--plant-fault", args->fault, "<stage>.<array>: change one element of a GPU stage's output (a test of the lockstep itself)");
  verb->add_option("--dump", args->run.dump, "write both traces (DIR/gpu, DIR/cpu) and GEMM reproducers (DIR/reproducers)");
  verb->callback([args, verb, &action] {
    args->mma_level = verb->count("--op") > 0 && verb->count("--scheme") == 0;
    args->arch_given = verb->count("--arch") > 0, args->dist_given = verb->count("--dist") > 0;
    for (const CLI::Option* o : verb->get_options())
      if (o->count() > 0) args->given.push_back(o->get_name());
    action = [args](std::ostream& out) { return run_lockstep(*args, out); };
  });
}

}  // namespace ozref::cli
