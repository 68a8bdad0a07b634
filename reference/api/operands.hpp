// The A and B operands of a product, from .npy files or from arrays a library caller handed over,
// with their shapes and the product's memory checked. The command and the
// library both take their operands here, so that both refuse the same inputs with the same words.
#pragma once
#include <string>

#include "common/matrix.hpp"

namespace ozref {

struct Operands {
  Matrix<double> a, b;
};

std::string shape_text(size_t rows, size_t cols);  // "3x4"

// Bytes an exact product of rows x cols holds (nearest, residual, residual_exact, nearest_fp32:
// exact/exact_gemm.hpp), for the memory checks made before it is computed.
double exact_product_bytes(size_t rows, size_t cols);

// InputError "shapes do not agree: ..." unless A (m x k) and B (b_rows x n) can be multiplied.
void require_agreeing_shapes(size_t m, size_t k, const std::string& a_name, size_t b_rows, size_t n, const std::string& b_name);
// InputError unless a rows x cols exact product (and an FP64 copy of it), beside operands of
// `operand_bytes` not yet allocated, fits in the memory budget; `what` names the product.
void require_product_memory(size_t rows, size_t cols, double operand_bytes, const std::string& what);

// A (m x k) and B (k x n), as matrix_from_npy() made them; `a_name` and `b_name` (a file name,
// or what the caller called the array) appear in the messages. InputError when the inner
// dimensions differ, or the m x n product (its exact form and an FP64 copy) would not fit in the
// memory budget (an empty K makes a large product from small inputs).
Operands checked_operands(Matrix<double> a, const std::string& a_name, Matrix<double> b, const std::string& b_name);

// Reads A (m x k) and B (k x n) from .npy files as FP64 (f4 files are widened exactly); InputError
// when a file is unreadable or malformed, and as checked_operands() gives it.
Operands load_operands(const std::string& a_path, const std::string& b_path);

}  // namespace ozref
