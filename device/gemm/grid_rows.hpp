// The row tiles of a GEMM kernel's two-dimensional grid (tiles of N by x, of M by y): CUDA's grid
// y extent is at most 65535, so an M beyond 65535 tiles is refused by name before launch rather
// than failing the launch (or leaving rows unwritten).
#pragma once
#include <cstddef>
#include <string>

#include "common/error.hpp"

namespace ozref::device {

inline unsigned grid_row_tiles(const char* kernel, size_t m, size_t tile_rows) {
  constexpr size_t kMaxGridY = 65535;
  const size_t tiles = (m + tile_rows - 1) / tile_rows;
  if (tiles > kMaxGridY)
    throw InputError(std::string(kernel) + ": M = " + std::to_string(m) + " needs " + std::to_string(tiles) + " row tiles of " + std::to_string(tile_rows) +
                     "; CUDA's grid y extent is at most 65535 (M <= " + std::to_string(kMaxGridY * tile_rows) + ")");
  return static_cast<unsigned>(tiles);
}

}  // namespace ozref::device
