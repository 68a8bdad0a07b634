#include "cli/command_line.hpp"

#include <string>

#include "cli/option_like_values.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "common/printable_text.hpp"
#if OZREF_WITH_MPI
#include "mpi/mpi_world.hpp"
#include "mpi/rank_agreement.hpp"
#endif

namespace ozref::cli {
namespace {

void add_verbs(CLI::App& app, Action& action) {
  add_exact(app, action);
  add_check(app, action);
  add_demo(app, action);
  add_mma_check(app, action);
  add_probe(app, action);
#if OZREF_WITH_PROOFS  // builds without Z3 (the GPU bundle) have no prove verb
  add_prove(app, action);
#endif
  add_run(app, action);
  add_diff(app, action);
  add_verify_trace(app, action);
  add_schema(app, action);
  add_lockstep(app, action);
  add_fuzz(app, action);
  add_spec(app, action);
  add_serve(app, action);
  add_infer(app, action);
}

std::string verb_list(CLI::App& app) {
  std::string names;
  for (const CLI::App* verb : app.get_subcommands([](CLI::App*) { return true; }))
    names += (names.empty() ? "" : ", ") + verb->get_name();
  return names;
}

}  // namespace

int run_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"ozref: a bit-exact reference for GEMM emulation on tensor cores"};
  app.require_subcommand(1);
  Action action;
  add_verbs(app, action);
  refuse_option_like_values(app);
#if OZREF_WITH_MPI
  if (mpi::active()) {  // before anything else, so that ranks started differently neither diverge nor wait for each other
    const std::string differs = mpi::command_line_disagreement(argc, argv);
    if (!differs.empty()) {
      err << "ozref: error: " << differs << "\n";
      return 2;
    }
  }
#endif
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc < 2) {
    err << "ozref: error: no verb given (verbs: " << verb_list(app) << "; ozref --help describes them)\n";
    return 2;
  }
  const bool is_verb = !app.get_subcommands([&](CLI::App* verb) { return verb->get_name() == first; }).empty();
  const bool help = first == "-h" || first == "--help";
  if (!is_verb && !help) {
    err << "ozref: error: " << (first.starts_with("-") ? quoted_excerpt(first) + " before the verb" : "unknown verb " + quoted_excerpt(first))
        << " (usage: ozref <verb> [options]; verbs: " << verb_list(app) << ")\n";
    return 2;
  }
  const std::string who = is_verb ? "ozref " + first : "ozref";
#if OZREF_WITH_MPI
  const bool distributed = first == "exact" || first == "check" || first == "run" || first == "verify-trace";
  if (mpi::ranks() > 1 && is_verb && !distributed) {  // R copies would race on their outputs
    err << who << ": error: runs in one process; under mpirun or srun with more than one rank only exact, check, run and verify-trace are distributed (docs/scale.md)\n";
    return 2;
  }
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    err << who << ": error: " << printable_text(e.what()) << "\n";
    return 2;
  }
  try {
    return action(out);
  } catch (...) {
    err << who << ": error: " << failure_message(std::current_exception()) << "\n";
    return 2;
  }
}

}  // namespace ozref::cli
