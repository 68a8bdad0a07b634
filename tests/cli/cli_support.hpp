// Running whole ozref command lines in the test process, through the same entry point as the
// ozref executable (cli/command_line.hpp): exit code, standard output and standard error.
#pragma once
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

#include "cli/command_line.hpp"

namespace ozref::test {

struct CommandResult {
  int code = -1;
  std::string out, err;
};

inline CommandResult run_ozref(const std::vector<std::string>& args) {
  std::vector<const char*> argv{"ozref"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = cli::run_command_line(int(argv.size()), argv.data(), out, err);
  return {code, out.str(), err.str()};
}

// The same in a child process running as user and group 65534 (nobody) when the tests run as
// root, who is allowed past every file permission: for the cases where a permission must be
// missing. Standard output is not kept.
inline CommandResult run_ozref_unprivileged(const std::vector<std::string>& args) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(120);
    if (::geteuid() == 0) ::_exit(121);
    const CommandResult r = run_ozref(args);
    const ssize_t written = ::write(fds[1], r.err.data(), r.err.size());
    ::_exit(written == ssize_t(r.err.size()) ? r.code : 122);
  }
  ::close(fds[1]);
  CommandResult r;
  char buf[4096];
  for (ssize_t got; (got = ::read(fds[0], buf, sizeof buf)) > 0;) r.err.append(buf, size_t(got));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace ozref::test
