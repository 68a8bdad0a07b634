// Starting another program without a shell: its arguments reach it exactly as given, so no
// character in them (a quote, a semicolon) can be interpreted as a command.
#pragma once
#include <string>
#include <vector>

namespace ozref {

// Runs `program` (a path) with `arguments`, waits for it and returns its exit code, or 128 plus
// the signal number when a signal ended it. InputError naming the program when it cannot start.
int run_program(const std::string& program, const std::vector<std::string>& arguments);

// How a program run under limits ended.
struct ProgramEnd {
  enum Kind { Exited, Signalled, TimedOut } kind = Exited;
  int code = 0;  // the exit code, or the signal number
};

struct ProgramLimits {
  double timeout_seconds = 0;  // > 0: past it, the program's process group is killed (SIGKILL)
  bool search_path = false;    // a program without '/' is looked up on PATH
  std::string log;             // non-empty: standard output and error go to this file (truncated)
};

// run_program with limits; the program runs in a process group of its own, so that a timeout
// ends whatever it started too. InputError naming the program when it cannot start.
ProgramEnd run_program_limited(const std::string& program, const std::vector<std::string>& arguments, const ProgramLimits& limits);

}  // namespace ozref
