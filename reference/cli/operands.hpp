// Loading the A and B operands of a product from .npy files, with their shapes checked.
#pragma once
#include <string>

#include "common/matrix.hpp"

namespace ozref::cli {

struct Operands {
  Matrix<double> a, b;
};

// Bytes an exact product of rows x cols holds (nearest, residual, residual_exact, nearest_fp32:
// exact/exact_gemm.hpp), for the memory checks made before it is computed.
double exact_product_bytes(size_t rows, size_t cols);

// Reads A (m x k) and B (k x n) as FP64 (f4 files are widened exactly); throws InputError when a
// file is unreadable or malformed, the inner dimensions differ, or the m x n product (its exact
// form and an FP64 copy) would not fit in the memory budget (an empty K makes a large
// product from small files).
Operands load_operands(const std::string& a_path, const std::string& b_path);

}  // namespace ozref::cli
