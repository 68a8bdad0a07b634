// The ozref command line: every verb registered, the arguments parsed, the chosen verb run, and
// every failure turned into one line `ozref <verb>: error: <file or option>: <problem>` on the
// error stream with exit code 2 (a bad option, an unknown verb, bad input, and also memory
// exhaustion, file system errors and any other exception a verb lets through). main() and the
// whole-command fuzz target (fuzz/fuzz_cli.cpp) call it.
#pragma once
#include <ostream>

#include "ozref/error.hpp"

namespace ozref::cli {

int run_command_line(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// The <file or option>: <problem> part of the message for an exception a verb let through.
using ozref::failure_message;

}  // namespace ozref::cli
