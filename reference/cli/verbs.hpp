// The ozref verbs. Each verb is one file: its options, its registration on the command line and
// its run function, which tests call directly. A run function returns the exit code and throws
// InputError on bad input (main prints it and exits with 2).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "ozref/fuzz.hpp"
#include "ozref/scheme_options.hpp"

namespace ozref::cli {

// Registers a verb; `action` is set to the function to run when the verb is chosen.
using Action = std::function<int(std::ostream&)>;

struct ExactArgs {
  std::string a, b, out;
  int threads = 0;
  bool timings = false;  // the phase table on standard error (cli/timings_report.hpp)
  std::string device = "cpu";  // --device: cpu (exact_gemm) or gpu (exact/gpu_exact.hpp)
  bool json = false;
};
int run_exact(const ExactArgs& args, std::ostream& out);
void add_exact(CLI::App& app, Action& action);

struct CheckArgs {
  std::string a, b, c;
  bool json = false;
  int threads = 0;
  bool timings = false;
  std::optional<double> at_least = std::nullopt;  // --at-least BITS: exit 1 below it
  std::string metric = "maxnorm";
  std::string device = "cpu";  // where the exact product is computed: cpu or gpu
};
int run_check(const CheckArgs& args, std::ostream& out);
void add_check(CLI::App& app, Action& action);

struct DemoArgs {
  size_t m = 256, n = 256, k = 256;
  double phi = 1.0;
  uint64_t seed = 1;
  bool json = false;
  int threads = 0;
};
int run_demo(const DemoArgs& args, std::ostream& out);
void add_demo(CLI::App& app, Action& action);

}  // namespace ozref::cli

namespace ozref::cli {

struct MmaCheckArgs {
  std::vector<std::string> traces;
  std::string arch = "sm_90";
  bool json = false;
  std::string gemm = {};  // a GEMM reproducer folder instead of traces
};
// Exit 0 only when records > 0 and none mismatched; 1 when some mismatched or none were read.
int run_mma_check(const MmaCheckArgs& args, std::ostream& out);
void add_mma_check(CLI::App& app, Action& action);

}  // namespace ozref::cli

namespace ozref::cli {

struct ProbeArgs {
  std::string out;                  // run the probes on the GPU, writing traces here
  std::vector<std::string> traces;  // or analyse existing trace files
  std::string probe_binary;         // default: device/mma_probe beside the ozref binary
  std::string arch = "sm_90";
  bool json = false;
};
// Exit 0 when the report was made; 77 when --out was given and no GPU is present (with a message);
// 1 when the model does not reproduce every record.
int run_probe(const ProbeArgs& args, std::ostream& out);
void add_probe(CLI::App& app, Action& action);

}  // namespace ozref::cli

namespace ozref::cli {

struct ProveArgs {
  std::string only;
  bool long_too = false;
  bool json = false;
};
int run_prove(const ProveArgs& args, std::ostream& out);
void add_prove(CLI::App& app, Action& action);

}  // namespace ozref::cli

namespace ozref::cli {

struct RunArgs {
  std::string scheme = "ozaki2-int8";
  // The scheme's options; not given: the scheme's default. A scheme refuses the options it does not take.
  api::SchemeOptions options;
  size_t m = 128, n = 128, k = 1024;
  bool shape_given = false;  // --m, --n or --k on the command line (refused with --a/--b)
  std::string a, b;  // .npy inputs instead of generated ones
  std::string dist = "phi:1";
  uint64_t seed = 1;
  std::string verify;  // default by size
  std::string dump, out;
  bool complex = false;  // ozaki2-* (3M), ozaki1-* (4M)
  bool json = false;
  int threads = 0;
};
// Exit 0 when the run completed and every checked stage verified; 1 when a stage reported a
// violation (the report says which); InputError for bad input.
int run_run(const RunArgs& args, std::ostream& out);
void add_run(CLI::App& app, Action& action);
// What a trace of the scheme holds for the shape (docs/verbs/schema.md); exit 0, InputError for
// options the scheme refuses.
int run_schema(const RunArgs& args, std::ostream& out);
void add_schema(CLI::App& app, Action& action);

struct DiffArgs {
  std::string left, right;
  bool json = false;
};
// Exit 0 when the traces are identical bit for bit, 1 at the first divergence.
int run_diff(const DiffArgs& args, std::ostream& out);
void add_diff(CLI::App& app, Action& action);

struct VerifyTraceArgs {
  std::string dir;
  std::string a, b;         // the scheme's inputs, when the trace holds none
  std::string verify;       // default by size, as run
  std::string reproducers;  // default: DIR/reproducers
  bool json = false;
  int threads = 0;
};
// Exit 0 when every stage verifies and every stage the trace holds that is a function of its
// inputs equals the CPU's recomputation bit for bit; 1 otherwise; InputError for a malformed
// trace.
int run_verify_trace(const VerifyTraceArgs& args, std::ostream& out);
void add_verify_trace(CLI::App& app, Action& action);

struct LockstepArgs {
  RunArgs run;                   // the scheme, its options and operands, as `run` takes them
  std::string lockstep = "resync";  // or "free"
  std::string gemm = "mma";      // or "cublaslt", "wgmma-fused"
  std::string fault;             // --plant-fault <stage>.<array>
  bool mma_level = false;        // --op without --scheme: one GEMM through that instruction
  bool arch_given = false, dist_given = false;
  std::vector<std::string> given;  // the options on the command line (the MMA level refuses a scheme's)
};
// Exit 0 when every stage verifies and every compared stage is bit-identical, 1 otherwise, 77 with
// a message when no GPU is present (or ozref was built without CUDA); InputError for bad input.
int run_lockstep(const LockstepArgs& args, std::ostream& out);
void add_lockstep(CLI::App& app, Action& action);

}  // namespace ozref::cli

namespace ozref::cli {

struct FuzzArgs {
  std::string subject;
  RunArgs scheme;             // a scheme subject's options (scheme, shape and data unused)
  api::FuzzOptions options;   // the rest, as the library takes them
  std::string exact_device = "cpu";  // where the oracle runs: cpu, or gpu (the command's only)
};
// Exit 1 when a property failed (the reproducer in --out), 0 when none did; InputError for bad input.
int run_fuzz(const FuzzArgs& args, std::ostream& out, std::ostream& progress);
void add_fuzz(CLI::App& app, Action& action);

struct SpecArgs {
  std::string arch = "sm_90";
  std::string op;   // empty: every instruction of the spec
  std::string out;  // empty: standard output
};
// Writes a spec as a spec file (docs/infer.md, "Spec files"). Exit 0.
int run_spec(const SpecArgs& args, std::ostream& out);
void add_spec(CLI::App& app, Action& action);

struct ServeArgs {
  std::string arch = "sm_90";
  std::string op;  // empty: every op of the spec
  std::string device = "cpu";  // cpu: the spec's model; gpu: this machine's GPU (infer/gpu_oracle.hpp)
  bool arch_given = false;
};
// Answers line-protocol queries from `in` (docs/infer.md, "The protocol"). Exit 0 at the end of
// the input; InputError for a malformed query.
int run_serve(const ServeArgs& args, std::istream& in, std::ostream& out);
void add_serve(CLI::App& app, Action& action);

struct InferArgs {
  std::string op;
  std::string oracle;                // a command speaking the line protocol
  double oracle_timeout = 10;        // seconds an answer may take
  std::vector<std::string> records;  // or fixed MMA trace records
  std::string like;                  // the spec that gives the op's interface (default: the first built-in)
  std::string out;                   // the inferred spec file
  uint64_t seed = 1;
  uint64_t validate = 10000;
  bool json = false;
};
// Exit 0 with one spec (written to --out when given) that agrees with every answer and every
// validation query; 1 when several candidates remain or none fits; InputError for bad input.
int run_infer(const InferArgs& args, std::ostream& out);
void add_infer(CLI::App& app, Action& action);

}  // namespace ozref::cli
