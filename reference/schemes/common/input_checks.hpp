// The checks every scheme makes of its inputs before a stage runs: finite values, and shapes that
// multiply.
#pragma once
#include <cstddef>
#include <string>

#include "common/matrix.hpp"

namespace ozref::schemes {

// InputError "<scheme>: <name>[i,j] is not finite; ..." for the first NaN or infinity.
void require_finite(MatrixView<double> m, const char* scheme, const char* name);
// That message for element (i, j); the index of the first NaN or infinity (C order), or m.size().
std::string non_finite_message(const std::string& scheme, const char* name, size_t i, size_t j);
size_t first_non_finite(MatrixView<double> m);

// InputError "<scheme>: A is m x k but B is k' x n" unless A's columns are B's rows.
void require_product_shapes(size_t a_rows, size_t a_cols, size_t b_rows, size_t b_cols, const std::string& scheme);

}  // namespace ozref::schemes
