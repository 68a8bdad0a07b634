// How much memory a verb may ask for. Sizes that come from outside (shapes in a file, --m, --n,
// --k) are checked against this budget before anything is allocated, so that a typo or a hostile
// header is refused with a message instead of ending in std::bad_alloc or the OOM killer.
#pragma once
#include <cstdint>
#include <string>

namespace ozref {

// The machine's physical memory, unless set_memory_budget lowered it (tests and fuzzers do).
uint64_t memory_budget();
void set_memory_budget(uint64_t bytes);

// InputError "<what> would need N bytes, more than the memory budget (M bytes)" when `bytes` (a
// double, so that products of sizes cannot wrap) exceeds the budget.
void require_memory(double bytes, const std::string& what);

}  // namespace ozref
