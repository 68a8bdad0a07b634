// One ozref command line run in-process, as the executable runs it (cli/command_line.hpp), for the
// fuzz targets that drive whole verbs.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"

namespace fuzz {

struct CommandResult {
  int code = 0;
  std::string out, err;
};

inline CommandResult ozref_command(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"ozref"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = ozref::cli::run_command_line(int(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

}  // namespace fuzz
