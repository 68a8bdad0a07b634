// A contract check over many elements, in parallel, reporting in element order whatever the thread
// count: each chunk of elements is checked into its own report, and the chunks' reports are merged
// in order.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "schemes/stage_report.hpp"

namespace ozref::schemes {

// check(begin, end, chunk_report) for chunks covering [0, count).
template <typename F>
void parallel_check(size_t count, StageReport& report, F&& check) {
  constexpr size_t kChunk = 4096;
  const size_t chunks = (count + kChunk - 1) / kChunk;
  std::vector<StageReport> parts(chunks);
#pragma omp parallel for schedule(dynamic)
  for (size_t c = 0; c < chunks; ++c) check(c * kChunk, std::min(count, (c + 1) * kChunk), parts[c]);
  for (const StageReport& part : parts) report.absorb(part);
}

}  // namespace ozref::schemes
