// The ozref command (cli/command_line.hpp does the work).
#include <iostream>

#include "cli/command_line.hpp"
#include "common/retain_memory.hpp"
#include "io/temp_file_cleanup.hpp"

int main(int argc, char** argv) {
  ozref::retain_freed_memory();
  ozref::install_temp_file_cleanup();
  return ozref::cli::run_command_line(argc, argv, std::cout, std::cerr);
}
