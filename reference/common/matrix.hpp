// A dense row-major matrix, and a read-only view of one held elsewhere (a stage array's plane).
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

template <typename T>
struct MatrixView {
  const T* data = nullptr;
  size_t rows = 0;
  size_t cols = 0;

  MatrixView() = default;
  MatrixView(const T* d, size_t r, size_t c) : data(d), rows(r), cols(c) {}
  MatrixView(const Matrix<T>& m) : data(m.data.data()), rows(m.rows), cols(m.cols) {}  // NOLINT: implicit on purpose
  const T& operator()(size_t i, size_t j) const { return data[i * cols + j]; }
  size_t size() const { return rows * cols; }
  // Column j's first element, its next one `cols` further; null for a view of no rows (whose data
  // may be null, where even data + j is undefined).
  const T* column(size_t j) const { return rows ? data + j : nullptr; }
};

}  // namespace ozref
