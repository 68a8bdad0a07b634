// How the library takes a caller's arrays: a view of C-ordered (row-major), little-endian data
// that it copies before it returns, with a name that its error messages use in place of a file
// name. The element types are the .npy dtypes that the ozref command reads.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ozref::api {

// f8: double, f4: float, c16: std::complex<double>; the integer types are accepted where the
// command accepts them (nowhere among the matrix operands today: they are refused with the
// command's message, as an .npy file of that type would be).
enum class Dtype { f8, f4, i1, u1, i2, u2, i4, u4, i8, u8, c16 };

struct ArrayRef {
  Dtype dtype = Dtype::f8;
  const void* data = nullptr;   // shape[0] * shape[1] * ... elements, C order
  std::vector<size_t> shape = {};
  std::string name = "array";   // "A", "weights.npy", ...: where an error message says what is wrong
};

inline ArrayRef matrix(const double* data, size_t rows, size_t cols, std::string name = "array") {
  return {Dtype::f8, data, {rows, cols}, std::move(name)};
}
inline ArrayRef matrix(const float* data, size_t rows, size_t cols, std::string name = "array") {
  return {Dtype::f4, data, {rows, cols}, std::move(name)};
}
inline ArrayRef matrix(const std::complex<double>* data, size_t rows, size_t cols, std::string name = "array") {
  return {Dtype::c16, data, {rows, cols}, std::move(name)};
}

// A result matrix, row-major.
template <typename T>
struct Matrix {
  size_t rows = 0, cols = 0;
  std::vector<T> data;
  const T& operator()(size_t i, size_t j) const { return data[i * cols + j]; }
};

}  // namespace ozref::api
