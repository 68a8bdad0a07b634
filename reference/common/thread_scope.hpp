// The OpenMP thread count of a run, set once: every parallel region the run enters without its own
// num_threads clause (stages, their checks, the MMA model) uses it; restored on scope exit.
#pragma once
#include <omp.h>

namespace ozref {

class ThreadScope {
 public:
  explicit ThreadScope(int threads) : saved_(omp_get_max_threads()) {
    if (threads > 0) omp_set_num_threads(threads);
  }
  ~ThreadScope() { omp_set_num_threads(saved_); }
  ThreadScope(const ThreadScope&) = delete;
  ThreadScope& operator=(const ThreadScope&) = delete;

 private:
  int saved_;
};

}  // namespace ozref
