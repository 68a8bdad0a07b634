#include "common/memory_budget.hpp"

#include <atomic>
#include <cstdio>
#include <unistd.h>

#include "common/error.hpp"

namespace ozref {
namespace {
std::atomic<uint64_t> budget_override{0};  // 0: the physical memory

uint64_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : uint64_t{1} << 32;
}

std::string bytes_text(double bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g bytes", bytes);
  return buf;
}
}  // namespace

uint64_t memory_budget() {
  const uint64_t set = budget_override.load();
  return set ? set : physical_memory();
}

void set_memory_budget(uint64_t bytes) { budget_override.store(bytes); }

void require_memory(double bytes, const std::string& what) {
  const double budget = double(memory_budget());
  if (bytes > budget)
    throw InputError(what + " would need " + bytes_text(bytes) + ", more than the memory budget (" + bytes_text(budget) + ")");
}

}  // namespace ozref
