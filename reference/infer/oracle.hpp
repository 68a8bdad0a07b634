// An MMA under test, as `infer` asks it: a function from a query to D. Two forms: a spec run in
// process (tests, and `ozref serve`'s own model), and a program speaking the line protocol
// (infer/protocol.hpp) on its standard input and output.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <sys/types.h>

#include "io/mma_trace.hpp"
#include "mma/instruction.hpp"

namespace ozref::infer {

using Oracle = std::function<uint32_t(const MmaRecord& query)>;

// The in-process black box: `spec`'s model (the spec is copied).
Oracle spec_oracle(const mma::InstructionSpec& spec);

// `command` run by /bin/sh in a process group of its own, one query written per line and one answer
// read back. InputError naming the command when it cannot start, closes its output, answers
// something other than 8 hex digits, or gives no answer within `timeout_seconds`. On destruction
// its standard input is closed; a process still running `timeout_seconds` later is killed, with
// its group, so that a hung black box never hangs ozref.
class ProcessOracle {
 public:
  explicit ProcessOracle(const std::string& command, double timeout_seconds = 10);
  ~ProcessOracle();
  ProcessOracle(const ProcessOracle&) = delete;
  ProcessOracle& operator=(const ProcessOracle&) = delete;

  uint32_t operator()(const MmaRecord& query);
  size_t queries() const { return queries_; }

 private:
  // The next line of the oracle's output (without its newline); false at end of output.
  bool read_line(std::string& line, const std::string& who);

  std::string command_;
  double timeout_seconds_;
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string pending_;  // what was read past the last line
  size_t queries_ = 0;
};

}  // namespace ozref::infer
