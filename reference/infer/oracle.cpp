#include "infer/oracle.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <sstream>

#include "common/error.hpp"
#include "common/seconds_since.hpp"
#include "infer/protocol.hpp"
#include "mma/execute.hpp"

namespace ozref::infer {

Oracle spec_oracle(const mma::InstructionSpec& spec) {
  return [spec](const MmaRecord& q) { return mma::execute(spec, {q.a, q.b, q.c, q.scale_a, q.scale_b}); };
}

namespace {

// Waits for the process to end, up to `seconds`; false when it is still running.
bool ended_within(pid_t pid, double seconds) {
  for (const auto start = std::chrono::steady_clock::now();;) {
    const pid_t r = waitpid(pid, nullptr, WNOHANG);
    if (r > 0 || (r < 0 && errno != EINTR)) return true;  // reaped (or not ours to wait for)
    if (r == 0 && seconds_since(start) > seconds) return false;
    if (r == 0) usleep(10000);
  }
}

std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds;
  return text.str();
}

// Waits until `fd` is ready for `events`, up to what is left of `timeout` since `start`; false
// when the time ran out.
bool ready_within(int fd, short events, std::chrono::steady_clock::time_point start, double timeout) {
  for (;;) {
    const double left = timeout - seconds_since(start);
    if (left <= 0) return false;
    pollfd p = {fd, events, 0};
    const int r = poll(&p, 1, static_cast<int>(std::ceil(left * 1000)));
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) throw InputError(std::string("--oracle: poll failed: ") + std::strerror(errno));
  }
}

}  // namespace

ProcessOracle::ProcessOracle(const std::string& command, double timeout_seconds) : command_(command), timeout_seconds_(timeout_seconds) {
  int to[2], from[2];  // close-on-exec: the oracle inherits none of ozref's other files
  if (pipe2(to, O_CLOEXEC) != 0) throw InputError("--oracle " + quoted_excerpt(command) + ": cannot make a pipe");
  if (pipe2(from, O_CLOEXEC) != 0) {
    close(to[0]), close(to[1]);
    throw InputError("--oracle " + quoted_excerpt(command) + ": cannot make a pipe");
  }
  std::signal(SIGPIPE, SIG_IGN);  // an oracle that exits early is an error message, not a signal
  pid_ = fork();
  if (pid_ == 0) {
    setpgid(0, 0);  // its own group: a timeout kills whatever the shell started too
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
  setpgid(pid_, pid_);  // also here: whichever of the two runs first
  to_ = to[1], from_ = from[0];
}

ProcessOracle::~ProcessOracle() {
  if (to_ >= 0) close(to_);
  if (from_ >= 0) close(from_);
  if (pid_ <= 0) return;
  const bool ended = ended_within(pid_, timeout_seconds_);
  kill(-pid_, SIGKILL);  // the group: whatever the shell left running, even after the shell ended
  if (!ended)
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
}

bool ProcessOracle::read_line(std::string& line, const std::string& who) {
  const auto start = std::chrono::steady_clock::now();
  for (size_t newline; (newline = pending_.find('\n')) == std::string::npos;) {
    if (!ready_within(from_, POLLIN, start, timeout_seconds_))
      throw InputError(who + ": the oracle gave no answer within " + seconds_text(timeout_seconds_) + " s (--oracle-timeout)");
    char buffer[4096];
    const ssize_t n = read(from_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      line = pending_;
      pending_.clear();
      return !line.empty();
    }
    pending_.append(buffer, static_cast<size_t>(n));
  }
  const size_t newline = pending_.find('\n');
  line = pending_.substr(0, newline);
  pending_.erase(0, newline + 1);
  return true;
}

uint32_t ProcessOracle::operator()(const MmaRecord& query) {
  ++queries_;
  const std::string who = "--oracle " + quoted_excerpt(command_) + ", query " + std::to_string(queries_);
  const std::string line = format_query(query) + "\n";
  const auto start = std::chrono::steady_clock::now();
  for (size_t written = 0; written < line.size();) {
    if (!ready_within(to_, POLLOUT, start, timeout_seconds_))  // an oracle that stopped reading fills the pipe
      throw InputError(who + ": the oracle took no input within " + seconds_text(timeout_seconds_) + " s (--oracle-timeout)");
    const ssize_t n = write(to_, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw InputError(who + ": the oracle stopped reading its input");
    written += static_cast<size_t>(n);
  }
  std::string answer;
  if (!read_line(answer, who)) throw InputError(who + ": the oracle closed its output without answering " + quoted_excerpt(format_query(query)));
  return parse_answer(answer, who);
}

}  // namespace ozref::infer
