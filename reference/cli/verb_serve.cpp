// ozref serve --arch A [--op OP] | --device gpu [--op OP]: a spec's model, or this machine's GPU, as
// a black box speaking the line protocol on standard input and output (infer/protocol.hpp,
// docs/infer.md), for `ozref infer` and others' tools.
#include <algorithm>
#include <iostream>

#include "cli/gpu_missing.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "infer/gpu_oracle.hpp"
#include "infer/protocol.hpp"

namespace ozref::cli {

int run_serve(const ServeArgs& args, std::istream& in, std::ostream& out) {
  if (args.device != "gpu") return infer::serve(mma::arch(args.arch), args.op, in, out);
  if (args.arch_given) throw InputError("--arch names a spec to serve; --device gpu serves this machine's GPU itself");
  // On standard error: standard output carries answers.
  if (const int code = gpu_missing("serve", args.device, std::cerr, "--device", "an sm_90 GPU")) return code;
  const infer::Oracle gpu = infer::gpu_oracle();
  if (!args.op.empty()) {
    const std::vector<std::string> ops = infer::gpu_oracle_ops();
    if (std::find(ops.begin(), ops.end(), args.op) == ops.end()) throw InputError("--op: the GPU server does not run " + quoted_excerpt(args.op));
  }
  return infer::serve(gpu, args.op, in, out);
}

void add_serve(CLI::App& app, Action& action) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* verb = app.add_subcommand("serve", "answer MMA queries on standard input by a spec's model or by this GPU (the line protocol of docs/infer.md)");
  verb->add_option("--arch", args->arch, "the spec: a built-in name or a spec file")->capture_default_str();
  verb->add_option("--op", args->op, "the one instruction served (default: every instruction of the spec)");
  verb->add_option("--device", args->device, "cpu: the spec's model; gpu: each query run on this machine's GPU (sm_90; exit 77 without one)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->capture_default_str();
  verb->callback([args, verb, &action] {
    args->arch_given = verb->count("--arch") > 0;
    action = [args](std::ostream& out) { return run_serve(*args, std::cin, out); };
  });
}

}  // namespace ozref::cli
