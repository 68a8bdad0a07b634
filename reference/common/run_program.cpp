#include "common/run_program.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

#include "common/error.hpp"

extern char** environ;

namespace ozref {
namespace {

// posix_spawn's attributes and file actions, released on every path out.
struct SpawnSetup {
  posix_spawnattr_t attr;
  posix_spawn_file_actions_t actions;
  SpawnSetup() {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

pid_t spawn(const std::string& program, const std::vector<std::string>& arguments, const ProgramLimits& limits) {
  std::vector<std::string> words{program};
  words.insert(words.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  SpawnSetup setup;
  if (limits.timeout_seconds > 0) {
    posix_spawnattr_setpgroup(&setup.attr, 0);
    posix_spawnattr_setflags(&setup.attr, POSIX_SPAWN_SETPGROUP);
  }
  if (!limits.log.empty()) {
    posix_spawn_file_actions_addopen(&setup.actions, 1, limits.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&setup.actions, 1, 2);
  }
  pid_t pid = 0;
  const int failed = limits.search_path ? posix_spawnp(&pid, program.c_str(), &setup.actions, &setup.attr, argv.data(), environ)
                                        : posix_spawn(&pid, program.c_str(), &setup.actions, &setup.attr, argv.data(), environ);
  if (failed) throw InputError(program + ": cannot start: " + std::strerror(failed));
  return pid;
}

// waitpid, retried on EINTR; with `block` false, returns false while the program runs.
bool reap(pid_t pid, const std::string& program, int& status, bool block) {
  for (;;) {
    const pid_t got = waitpid(pid, &status, block ? 0 : WNOHANG);
    if (got == pid) return true;
    if (got == 0) return false;
    if (errno != EINTR) throw InputError(program + ": cannot wait for it: " + std::strerror(errno));
  }
}

ProgramEnd end_of(int status) {
  if (WIFEXITED(status)) return {ProgramEnd::Exited, WEXITSTATUS(status)};
  return {ProgramEnd::Signalled, WTERMSIG(status)};
}

}  // namespace

int run_program(const std::string& program, const std::vector<std::string>& arguments) {
  const ProgramEnd end = run_program_limited(program, arguments, {});
  return end.kind == ProgramEnd::Exited ? end.code : 128 + end.code;
}

ProgramEnd run_program_limited(const std::string& program, const std::vector<std::string>& arguments, const ProgramLimits& limits) {
  const pid_t pid = spawn(program, arguments, limits);
  int status = 0;
  if (limits.timeout_seconds <= 0) {
    reap(pid, program, status, true);
    return end_of(status);
  }
  // Polling, with a pause that grows from 50 us: a quick program is reaped at once, a slow one
  // costs few wake-ups.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limits.timeout_seconds);
  auto pause = std::chrono::microseconds(50);
  while (!reap(pid, program, status, false)) {
    if (std::chrono::steady_clock::now() >= deadline) {
      kill(-pid, SIGKILL);
      reap(pid, program, status, true);
      return {ProgramEnd::TimedOut, 0};
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(10000));
  }
  return end_of(status);
}

}  // namespace ozref
