// ozref spec --arch A [--op OP] [--out FILE]: writes a spec (built-in or a file) as a spec file,
// every instruction or the one named, so that --arch FILE reproduces it (docs/infer.md).
#include "cli/verbs.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"
#include "mma/spec_file.hpp"

namespace ozref::cli {

int run_spec(const SpecArgs& args, std::ostream& out) {
  if (!args.out.empty()) check_output_file(args.out, "--out");
  mma::ArchSpec a = mma::arch(args.arch);
  if (!args.op.empty()) a.instructions = {mma::instruction(a, args.op)};
  if (args.out.empty()) out << json_text(mma::arch_to_json(a), 2) << "\n";
  else mma::write_spec_file(args.out, a);
  return 0;
}

void add_spec(CLI::App& app, Action& action) {
  auto args = std::make_shared<SpecArgs>();
  CLI::App* verb = app.add_subcommand("spec", "write an MMA spec as a spec file (JSON), for --arch FILE");
  verb->add_option("--arch", args->arch, "the spec: a built-in name or a spec file")->capture_default_str();
  verb->add_option("--op", args->op, "only this instruction (default: all)");
  verb->add_option("--out", args->out, "the file to write (default: standard output)");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_spec(*args, out); }; });
}

}  // namespace ozref::cli
