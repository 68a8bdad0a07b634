#include "dist/process_grid.hpp"

#include <algorithm>
#include <stdexcept>

namespace ozref::dist {

ProcessGrid process_grid(int ranks, size_t m, size_t n) {
  if (ranks < 1) throw std::invalid_argument("process_grid: ranks must be at least 1");
  ProcessGrid best{ranks, 1};
  // (m / rows + n / cols) compared as m * cols + n * rows, both sides multiplied by R.
  auto cost = [&](int rows, int cols) { return double(m) * cols + double(n) * rows; };
  for (int cols = 2; cols <= ranks; ++cols)
    if (ranks % cols == 0 && cost(ranks / cols, cols) < cost(best.rows, best.cols)) best = {ranks / cols, cols};
  return best;
}

Range part_of(size_t extent, int parts, int index) {
  if (parts < 1 || index < 0 || index >= parts) throw std::invalid_argument("part_of: index outside [0, parts)");
  const auto edge = [&](int i) { return extent / size_t(parts) * size_t(i) + std::min(extent % size_t(parts), size_t(i)); };
  return {edge(index), edge(index + 1)};
}

Block block_of(size_t m, size_t n, ProcessGrid grid, int rank) {
  return {part_of(m, grid.rows, rank / grid.cols), part_of(n, grid.cols, rank % grid.cols)};
}

}  // namespace ozref::dist
