// ozref lockstep: a scheme on the GPU twins of its stages (device/) and on the CPU, every stage
// compared bit for bit: re-synchronised (both sides fed the same inputs at every stage; the
// default) or free-running (each side its own pipeline). Exit 77 with a message without a GPU.
#include <nlohmann/json.hpp>

#include "cli/mma_lockstep.hpp"
#include "cli/report.hpp"
#include "cli/run_options.hpp"
#include "cli/stage_table.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"
#include "schemes/manifest.hpp"
#include "schemes/pipeline/gpu.hpp"
#include "schemes/pipeline/runner.hpp"

namespace ozref::cli {
namespace {

schemes::Lockstep lockstep_mode(const std::string& name) {
  if (name == "resync") return schemes::Lockstep::Resynchronised;
  if (name == "free") return schemes::Lockstep::FreeRunning;
  throw InputError("unknown --mode-lockstep '" + name + "' (known: resync, free)");
}

void print_lockstep(std::ostream& out, const LockstepArgs& args, const schemes::Scheme& s, const std::string& device,
                    const std::string& source, const schemes::SchemeResult& r) {
  if (args.run.json) {
    out << json_text({{"scheme", s.name}, {"options", s.options}, {"resolved", s.resolved}, {"m", s.m}, {"n", s.n}, {"k", s.k},
                          {"source", source}, {"device", device}, {"lockstep", args.lockstep}, {"gemm", args.gemm},
                          {"gpu_stages", schemes::gpu_stages(s)},
                          {"stages", stages_json(r, true)}, {"identical", r.identical}, {"exact", r.exact},
                          {"accuracy", metrics_json(r.accuracy)}, {"seconds", r.seconds}})
        << "\n";
    return;
  }
  out << "ozref lockstep: " << s.name << " " << s.options.dump() << ", " << s.m << "x" << s.n << "x" << s.k << " (" << source << ") on "
      << device << ", " << args.lockstep << ", GEMMs through " << args.gemm << "\n\n";
  print_stages(out, r, true);
  out << "\n  every compared stage bit-identical: " << (r.identical ? "yes" : "NO") << "\n\n";
  print_metrics(out, "the GPU's result against the exact product", r.accuracy);
}

}  // namespace

int run_lockstep(const LockstepArgs& args, std::ostream& out) {
  if (args.mma_level) return run_mma_lockstep(args, out);
  const schemes::Lockstep mode = lockstep_mode(args.lockstep);
  if (!args.run.dump.empty()) prepare_output_folder(args.run.dump, "--dump");
  SchemeInputs x = inputs_of(args.run);
  const schemes::Scheme s = schemes::build_scheme(args.run.scheme, scheme_options_of(args.run), x.m, x.n, x.k);
  const schemes::GpuInfo gpu = schemes::gpu_info();
  if (!gpu.available) {
    out << "ozref lockstep: " << gpu.why_not << "; the lockstep needs an sm_90 GPU (nothing was run)\n";
    return 77;
  }
  const std::unique_ptr<schemes::Subject> subject = schemes::make_gpu_subject(s, {args.gemm, args.fault});
  std::unique_ptr<TraceWriter> gpu_trace, cpu_trace;
  if (!args.run.dump.empty()) {
    gpu_trace = std::make_unique<TraceWriter>(args.run.dump + "/gpu", schemes::trace_header(s, x.source, args.run.seed));
    cpu_trace = std::make_unique<TraceWriter>(args.run.dump + "/cpu", schemes::trace_header(s, x.source, args.run.seed));
  }
  const schemes::SchemeResult r = schemes::run_scheme(
      s, std::move(x.arrays),
      {.verify = verify_level_of(args.run, s.m, s.n, s.k), .threads = args.run.threads, .trace = gpu_trace.get(),
       .cpu_trace = cpu_trace.get(), .subject = subject.get(), .mode = mode,
       .reproducers = args.run.dump.empty() ? "" : args.run.dump + "/reproducers"});
  if (gpu_trace) gpu_trace->finish(), cpu_trace->finish();
  print_lockstep(out, args, s, gpu.device, x.source, r);
  return stages_exit_code(r);
}

void add_lockstep(CLI::App& app, Action& action) {
  auto args = std::make_shared<LockstepArgs>();
  auto run = std::shared_ptr<RunArgs>(args, &args->run);
  CLI::App* verb = app.add_subcommand("lockstep", "run a scheme on the GPU twins of its stages and on the CPU, comparing every stage bit for bit");
  add_run_options(verb, run);
  verb->add_option("--lockstep", args->lockstep, "resync (both sides fed the same inputs at every stage) or free (each side its own pipeline)")
      ->capture_default_str();
  verb->add_option("--gemm", args->gemm, "the GPU's GEMM stages: mma (ozref's kernels on the instruction) or cublaslt")->capture_default_str();
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
