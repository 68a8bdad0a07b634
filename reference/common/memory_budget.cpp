#include "common/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>

#include "common/error.hpp"

namespace ozref {
namespace {
std::atomic<uint64_t> budget_override{0};  // 0: what the system would give the process now

uint64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t{1} << 32;
}

// The first number in the file (UINT64_MAX when it cannot be read or says "max").
uint64_t number_in(const std::string& path) {
  std::ifstream in(path);
  unsigned long long v = 0;
  return in >> v ? uint64_t(v) : UINT64_MAX;
}

// MemAvailable of /proc/meminfo: free memory and what the kernel can reclaim without swapping.
uint64_t memory_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  unsigned long long kib = 0;
  while (in >> key >> kib) {
    if (key == "MemAvailable:") return uint64_t(kib) * 1024;
    in.ignore(256, '\n');
  }
  return UINT64_MAX;
}

uint64_t soft_limit(int resource) {
  rlimit r{};
  return getrlimit(resource, &r) == 0 && r.rlim_cur != RLIM_INFINITY ? uint64_t(r.rlim_cur) : UINT64_MAX;
}

// The memory limit of this process's cgroup: v2's memory.max, v1's memory.limit_in_bytes, looked
// for under the path /proc/self/cgroup names and at the mount's root (a container's own cgroup).
uint64_t cgroup_limit() {
  std::ifstream in("/proc/self/cgroup");
  std::string line, v2 = "/", v1 = "/";
  while (std::getline(in, line)) {
    if (line.starts_with("0::")) v2 = line.substr(3);
    const size_t memory = line.find(":memory:");
    if (memory != std::string::npos) v1 = line.substr(memory + 8);
  }
  uint64_t least = UINT64_MAX;
  for (const std::string& path : {"/sys/fs/cgroup" + v2 + "/memory.max", std::string("/sys/fs/cgroup/memory.max"),
                                  "/sys/fs/cgroup/memory" + v1 + "/memory.limit_in_bytes", std::string("/sys/fs/cgroup/memory/memory.limit_in_bytes")})
    least = std::min(least, number_in(path));
  return least;
}

std::string bytes_text(double bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g bytes", bytes);
  return buf;
}
}  // namespace

uint64_t available_memory() {
  const uint64_t least = std::min({memory_available(), soft_limit(RLIMIT_AS), soft_limit(RLIMIT_DATA), cgroup_limit()});
  return least == UINT64_MAX ? physical_memory() : least;
}

uint64_t memory_budget() {
  const uint64_t set = budget_override.load();
  return set ? set : available_memory();
}

void set_memory_budget(uint64_t bytes) { budget_override.store(bytes); }

void require_memory(double bytes, const std::string& what) {
  const double budget = double(memory_budget());
  if (bytes > budget)
    throw InputError(what + " would need " + bytes_text(bytes) + ", more than the memory budget (" + bytes_text(budget) + ")");
}

}  // namespace ozref
