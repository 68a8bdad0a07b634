#include "schemes/cublas_fixedpoint/kblock.hpp"

#include <algorithm>

namespace ozref::schemes::cublas_fixedpoint {
namespace {
constexpr size_t kTile = 128, kWorkUnits = 32, kShortK = 512;  // the fitted constants
}

size_t kblock_size(size_t m, size_t n, size_t k) {
  const size_t tiles = (m + kTile - 1) / kTile * ((n + kTile - 1) / kTile);
  if (k <= kShortK && tiles < 8) return std::max<size_t>(k, 1);
  const size_t splits = std::max<size_t>(1, kWorkUnits / tiles);
  return kTile * std::max<size_t>(1, (2 * k + kTile * splits) / (2 * kTile * splits));  // round half up
}

}  // namespace ozref::schemes::cublas_fixedpoint
