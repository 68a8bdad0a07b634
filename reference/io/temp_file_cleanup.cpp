#include "io/temp_file_cleanup.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace ozref {
namespace {

// Fixed storage, so that the handler reads it without allocating (async-signal-safe).
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 registered
  char path[PATH_MAX];
};
constexpr int kSlots = 16;
Slot slots[kSlots];
// A creation in progress (between open and registration) on any thread, and whether a handler
// started: a handler waits until no creation is in progress; a creation that sees the handler
// started does not begin.
std::atomic<int> creating{0};
std::atomic<bool> dying{false};
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

void remove_registered_and_die(int sig) {
  dying.store(true);
  for (int i = 0; i < 5000 && creating.load() > 0; ++i) {  // at most about 5 s
    const timespec ms{0, 1000000};
    nanosleep(&ms, nullptr);
  }
  for (Slot& s : slots)
    if (s.state.load() == 2) ::unlink(s.path);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Blocks the cleanup signals on this thread for its lifetime: the handler must not run on the
// thread that is inside a creation (it would wait for itself).
struct SignalsBlocked {
  sigset_t old;
  SignalsBlocked() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kSignals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old);
  }
  ~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old, nullptr); }
};

}  // namespace

void install_temp_file_cleanup() {
  for (int sig : kSignals) {
    struct sigaction current {};
    if (sigaction(sig, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction cleanup {};
    cleanup.sa_handler = remove_registered_and_die;
    sigemptyset(&cleanup.sa_mask);
    sigaction(sig, &cleanup, nullptr);
  }
}

int create_registered_temp_file(int folder, const std::string& name, const std::string& path) {
  if (path.size() >= PATH_MAX) {
    errno = ENAMETOOLONG;
    return -1;
  }
  Slot* slot = nullptr;
  for (Slot& s : slots) {
    int free = 0;
    if (s.state.compare_exchange_strong(free, 1)) {
      slot = &s;
      break;
    }
  }
  if (!slot) {
    errno = EMFILE;
    return -1;
  }
  std::memcpy(slot->path, path.c_str(), path.size() + 1);
  const SignalsBlocked blocked;
  creating.fetch_add(1);
  if (dying.load()) {  // a handler is removing the files and will end the process
    creating.fetch_sub(1);
    slot->state.store(0);
    errno = EINTR;
    return -1;
  }
  const int fd = ::openat(folder, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
  const int open_errno = errno;
  slot->state.store(fd >= 0 ? 2 : 0);
  creating.fetch_sub(1);
  errno = open_errno;
  return fd;
}

void unregister_temp_file(const std::string& path) {
  for (Slot& s : slots)
    if (s.state.load() == 2 && path == s.path) {
      s.state.store(0);
      return;
    }
}

}  // namespace ozref
