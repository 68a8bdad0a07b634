// An MMA under test, as `infer` asks it: a function from a query to D. Two forms: a spec run in
// process (tests, and `ozref serve`'s own model), and a program speaking the line protocol
// (infer/protocol.hpp) on its standard input and output.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <sys/types.h>

#include "io/mma_trace.hpp"
#include "mma/instruction.hpp"

namespace ozref::infer {

using Oracle = std::function<uint32_t(const MmaRecord& query)>;

// The in-process black box: `spec`'s model (the spec is copied).
Oracle spec_oracle(const mma::InstructionSpec& spec);

// `command` run by /bin/sh, one query written per line and one answer read back. InputError naming
// the command when it cannot start, closes its output, or answers something other than 8 hex
// digits. The command's standard input is closed and the process waited for on destruction.
class ProcessOracle {
 public:
  explicit ProcessOracle(const std::string& command);
  ~ProcessOracle();
  ProcessOracle(const ProcessOracle&) = delete;
  ProcessOracle& operator=(const ProcessOracle&) = delete;

  uint32_t operator()(const MmaRecord& query);
  size_t queries() const { return queries_; }

 private:
  std::string command_;
  pid_t pid_ = -1;
  FILE* to_ = nullptr;
  FILE* from_ = nullptr;
  size_t queries_ = 0;
};

}  // namespace ozref::infer
