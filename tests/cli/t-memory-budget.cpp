// The memory budget is what the system would give the process (common/memory_budget.hpp): a lower
// RLIMIT_AS or RLIMIT_DATA lowers it, and a product past it is refused with the message, before
// anything is allocated. Each case runs in a child process, whose limits do not reach the tests.
// The limits are 1 GiB above what the process maps already (under AddressSanitizer, terabytes of
// shadow: the budget is then the available memory, and the refusal is not tried).
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_support.hpp"
#include "common/memory_budget.hpp"
#include "support.hpp"

namespace ozref {
namespace {

// The child's exit code: 0 when `check` held under the soft limit `bytes` on `resource`.
template <typename F>
int under_limit(int resource, rlim_t bytes, F check) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    rlimit r{};
    ::getrlimit(resource, &r);
    r.rlim_cur = bytes;
    if (::setrlimit(resource, &r) != 0) ::_exit(100);
    ::_exit(check() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// VmSize or VmData of /proc/self/status, in bytes.
uint64_t mapped(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string name;
  uint64_t kib = 0;
  while (in >> name) {
    if (name == key + ":" && in >> kib) return kib * 1024;
    in.ignore(4096, '\n');
  }
  return 0;
}

}  // namespace

TEST_CASE("memory budget: RLIMIT_AS and RLIMIT_DATA lower it, and a product past it is refused", "[cli]") {
  test::CaseCount cases("memory budget limits");
  const uint64_t available = available_memory();
  for (const auto& [resource, key] : {std::pair{RLIMIT_AS, "VmSize"}, std::pair{RLIMIT_DATA, "VmData"}}) {
    const rlim_t limit = mapped(key) + (rlim_t{1} << 30);
    INFO(key << " + 1 GiB = " << limit << " bytes; available before " << available);
    CHECK(under_limit(resource, limit, [&] { return available_memory() <= limit && memory_budget() <= limit; }) == 0);
    ++cases;
    // a product that needs 3x the limit (the operands and C of a generated run: 32 bytes per element of C)
    const size_t side = size_t(std::sqrt(3.0 * double(limit) / 32));
    if (3.0 * double(limit) >= double(available)) continue;  // the available memory refuses it anyway
    CHECK(under_limit(resource, limit, [&] {
            const test::CommandResult r = test::run_ozref({"run", "--m", std::to_string(side), "--n", std::to_string(side), "--k", "8"});
            return r.code == 2 && r.err.find("more than the memory budget") != std::string::npos;
          }) == 0);
    ++cases;
  }
  cases.report(2);
}

}  // namespace ozref
