// Wall seconds since a steady-clock time point (a run's or a stage's seconds).
#pragma once
#include <chrono>

namespace ozref {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace ozref
