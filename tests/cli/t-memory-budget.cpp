// The memory budget is what the system would give the process (common/memory_budget.hpp): a lower
// RLIMIT_AS or RLIMIT_DATA lowers it, and a product past it is refused with the message, before
// anything is allocated. Each case runs in a child process, whose limits do not reach the tests.
#include <catch2/catch.hpp>
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

}  // namespace

TEST_CASE("memory budget: RLIMIT_AS and RLIMIT_DATA lower it, and a product past it is refused", "[cli]") {
  test::CaseCount cases("memory budget limits");
  CHECK(available_memory() > 0);
  const rlim_t limit = rlim_t{3} << 30;  // 3 GiB: far below the product asked for, above what the test process maps
  for (const int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    INFO("resource " << resource);
    CHECK(under_limit(resource, limit, [&] { return available_memory() <= limit && memory_budget() <= limit; }) == 0);
    // 20000 x 20000: the operands, C and the exact product's 21 bytes per element need 12 GB
    CHECK(under_limit(resource, limit, [] {
            const test::CommandResult r = test::run_ozref({"run", "--m", "20000", "--n", "20000", "--k", "8"});
            return r.code == 2 && r.err.find("more than the memory budget") != std::string::npos;
          }) == 0);
    cases += 2;
  }
  cases.report(4);
}

}  // namespace ozref
