// A dense row-major matrix: the one container the library passes between stages.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace ozref {

template <typename T>
struct Matrix {
  size_t rows = 0;
  size_t cols = 0;
  std::vector<T> data;

  Matrix() = default;
  Matrix(size_t r, size_t c, T fill = T{}) : rows(r), cols(c), data(r * c, fill) {}
  T& operator()(size_t i, size_t j) { return data[i * cols + j]; }
  const T& operator()(size_t i, size_t j) const { return data[i * cols + j]; }
  size_t size() const { return data.size(); }
};

// out (cols x rows) = in (rows x cols) transposed, both row-major, in tiles that stay in cache;
// parallel over tile rows with `threads` OpenMP threads.
template <typename T>
void transpose(const T* in, size_t rows, size_t cols, T* out, int threads) {
  constexpr size_t kTile = 64;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t r0 = 0; r0 < rows; r0 += kTile)
    for (size_t c0 = 0; c0 < cols; c0 += kTile)
      for (size_t c = c0; c < std::min(cols, c0 + kTile); ++c)
        for (size_t r = r0; r < std::min(rows, r0 + kTile); ++r) out[c * rows + r] = in[r * cols + c];
}

}  // namespace ozref
