// The OpenMP runtime reads OMP_NUM_THREADS, OMP_THREAD_LIMIT and OMP_STACKSIZE (GOMP_STACKSIZE) when
// it loads: a value it cannot read it ignores with a warning, and a thread it cannot create (a stack
// of OMP_STACKSIZE=1T, a thread count the system refuses) ends the process with exit code 1 from
// inside the runtime, where no error of ours can be reported. The ozref executable checks them
// first thing and refuses what the runtime would ignore or die of, with exit code 2 (docs/user-guide.md).
#pragma once
#include <cstdint>
#include <string>

namespace ozref {

// Empty when the variables are absent or hold what the runtime takes and can honour, else the
// message naming the variable: OMP_NUM_THREADS a comma-separated list of integers 1..kMaxThreads,
// OMP_THREAD_LIMIT an integer 1..kMaxThreads, OMP_STACKSIZE and GOMP_STACKSIZE a size (digits and
// an optional B, K, M or G; K when none) of which `threads` stacks fit in `memory` bytes.
std::string openmp_environment_problem(uint64_t memory, int threads);

}  // namespace ozref
