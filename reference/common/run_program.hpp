// Starting another program without a shell: its arguments reach it exactly as given, so no
// character in them (a quote, a semicolon) can be interpreted as a command.
#pragma once
#include <string>
#include <vector>

namespace ozref {

// Runs `program` (a path) with `arguments`, waits for it and returns its exit code, or 128 plus
// the signal number when a signal ended it. InputError naming the program when it cannot start.
int run_program(const std::string& program, const std::vector<std::string>& arguments);

}  // namespace ozref
