// ozref serve --arch A [--op OP]: a spec as a black box speaking the line protocol on standard
// input and output (infer/protocol.hpp, docs/infer.md), for `ozref infer` and others' tools.
#include <iostream>

#include "cli/verbs.hpp"
#include "infer/protocol.hpp"

namespace ozref::cli {

int run_serve(const ServeArgs& args, std::istream& in, std::ostream& out) {
  return infer::serve(mma::arch(args.arch), args.op, in, out);
}

void add_serve(CLI::App& app, Action& action) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* verb = app.add_subcommand("serve", "answer MMA queries on standard input by a spec's model (the line protocol of docs/infer.md)");
  verb->add_option("--arch", args->arch, "the spec: a built-in name or a spec file")->capture_default_str();
  verb->add_option("--op", args->op, "the one instruction served (default: every instruction of the spec)");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_serve(*args, std::cin, out); }; });
}

}  // namespace ozref::cli
