// A dense row-major matrix: the one container the library passes between stages.
#pragma once
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

}  // namespace ozref
