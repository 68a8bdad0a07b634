// The ozref command: registers each verb (one file per verb) and turns bad input into a message
// and exit code 2.
#include <iostream>

#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "common/retain_memory.hpp"

int main(int argc, char** argv) {
  ozref::retain_freed_memory();
  CLI::App app{"ozref: a bit-exact reference for GEMM emulation on tensor cores"};
  app.require_subcommand(1);
  ozref::cli::Action action;
  ozref::cli::add_exact(app, action);
  ozref::cli::add_check(app, action);
  ozref::cli::add_demo(app, action);
  ozref::cli::add_mma_check(app, action);
  ozref::cli::add_probe(app, action);
  ozref::cli::add_prove(app, action);
  ozref::cli::add_run(app, action);
  ozref::cli::add_diff(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return action(std::cout);
  } catch (const ozref::InputError& e) {
    std::cerr << "ozref " << app.get_subcommands().front()->get_name() << ": error: " << e.what() << "\n";
    return 2;
  }
}
