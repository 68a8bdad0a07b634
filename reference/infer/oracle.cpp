#include "infer/oracle.hpp"

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include "common/error.hpp"
#include "infer/protocol.hpp"
#include "mma/execute.hpp"

namespace ozref::infer {

Oracle spec_oracle(const mma::InstructionSpec& spec) {
  return [spec](const MmaRecord& q) { return mma::execute(spec, {q.a, q.b, q.c, q.scale_a, q.scale_b}); };
}

ProcessOracle::ProcessOracle(const std::string& command) : command_(command) {
  int to[2], from[2];
  if (pipe(to) != 0) throw InputError("--oracle " + quoted_excerpt(command) + ": cannot make a pipe");
  if (pipe(from) != 0) {
    close(to[0]), close(to[1]);
    throw InputError("--oracle " + quoted_excerpt(command) + ": cannot make a pipe");
  }
  std::signal(SIGPIPE, SIG_IGN);  // an oracle that exits early is an error message, not a signal
  pid_ = fork();
  if (pid_ == 0) {
    dup2(to[0], 0), dup2(from[1], 1);
    close(to[0]), close(to[1]), close(from[0]), close(from[1]);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(to[0]), close(from[1]);
  if (pid_ < 0) {
    close(to[1]), close(from[0]);
    throw InputError("--oracle " + quoted_excerpt(command) + ": cannot start a process");
  }
  to_ = fdopen(to[1], "w");
  from_ = fdopen(from[0], "r");
}

ProcessOracle::~ProcessOracle() {
  if (to_) fclose(to_);
  if (from_) fclose(from_);
  int status = 0;
  if (pid_ > 0) waitpid(pid_, &status, 0);
}

uint32_t ProcessOracle::operator()(const MmaRecord& query) {
  ++queries_;
  const std::string who = "--oracle " + quoted_excerpt(command_) + ", query " + std::to_string(queries_);
  const std::string line = format_query(query) + "\n";
  if (fputs(line.c_str(), to_) == EOF || fflush(to_) != 0) throw InputError(who + ": the oracle stopped reading its input");
  char* answer = nullptr;
  size_t capacity = 0;
  const ssize_t n = getline(&answer, &capacity, from_);
  const std::string text = n > 0 ? std::string(answer, static_cast<size_t>(n)) : "";
  free(answer);
  if (n <= 0) throw InputError(who + ": the oracle closed its output without answering " + quoted_excerpt(format_query(query)));
  return parse_answer(text.back() == '\n' ? text.substr(0, text.size() - 1) : text, who);
}

}  // namespace ozref::infer
