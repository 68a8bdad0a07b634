// The ozref verbs. Each verb is one file: its options, its registration on the command line and
// its run function, which tests call directly. A run function returns the exit code and throws
// InputError on bad input (main prints it and exits with 2).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace ozref::cli {

// Registers a verb; `action` is set to the function to run when the verb is chosen.
using Action = std::function<int(std::ostream&)>;

struct ExactArgs {
  std::string a, b, out;
  int threads = 0;
};
int run_exact(const ExactArgs& args, std::ostream& out);
void add_exact(CLI::App& app, Action& action);

struct CheckArgs {
  std::string a, b, c;
  bool json = false;
  int threads = 0;
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
};
// Exit 0 only when records > 0 and none mismatched; 1 when some mismatched or none were read.
int run_mma_check(const MmaCheckArgs& args, std::ostream& out);
void add_mma_check(CLI::App& app, Action& action);

}  // namespace ozref::cli
