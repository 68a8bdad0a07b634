// How many threads a run may ask for: 0 asks for every core; OpenMP cannot start 10^5.
#pragma once

namespace ozref {

constexpr int kMaxThreads = 1024;

}  // namespace ozref
