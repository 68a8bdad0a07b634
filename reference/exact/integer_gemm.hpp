// The exact product of two matrices of small integers (|x| < 2^15), in int64: the one independent
// integer GEMM that the stage checks compare low-precision GEMMs, modular products and slice sums
// against. Operands are views with strides, so B can be read by rows or by columns, and INT8 bytes
// with either signedness.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ozref {

enum class IntegerType { S8, U8, S16, F64 };  // F64: integers held exactly in doubles

struct IntegerMatrix {
  const void* data = nullptr;
  IntegerType type = IntegerType::S8;
  size_t row_stride = 0, col_stride = 1;  // element (r, c) at data[r * row_stride + c * col_stride]
  int64_t at(size_t r, size_t c) const;
};

// c (m x n, row-major) = a (m x k) b (k x n), exactly, in parallel.
void exact_integer_gemm(size_t m, size_t n, size_t k, const IntegerMatrix& a, const IntegerMatrix& b, int64_t* c);

}  // namespace ozref
