// How much memory a verb may ask for. Sizes that come from outside (shapes in a file, --m, --n,
// --k) are checked against this budget before anything is allocated, so that a typo or a hostile
// header is refused with a message instead of ending in std::bad_alloc or the OOM killer.
#pragma once
#include <cstdint>
#include <string>

namespace ozref {

// What the system would give this process now: the least of MemAvailable (/proc/meminfo), the
// soft RLIMIT_AS and RLIMIT_DATA, and the cgroup's memory limit (v2 memory.max, v1
// memory.limit_in_bytes); the physical memory when none of them can be read.
uint64_t available_memory();

// available_memory(), unless set_memory_budget set it (tests and fuzzers do).
uint64_t memory_budget();
void set_memory_budget(uint64_t bytes);

// InputError "<what> would need N bytes, more than the memory budget (M bytes)" when `bytes` (a
// double, so that products of sizes cannot wrap) exceeds the budget.
void require_memory(double bytes, const std::string& what);

}  // namespace ozref
