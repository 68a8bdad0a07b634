// Loading the A and B operands of a product from .npy files, with their shapes checked.
#pragma once
#include <string>

#include "common/matrix.hpp"

namespace ozref::cli {

struct Operands {
  Matrix<double> a, b;
};

// Reads A (m x k) and B (k x n) as FP64 (f4 files are widened exactly); throws InputError when a
// file is unreadable or malformed or the inner dimensions differ.
Operands load_operands(const std::string& a_path, const std::string& b_path);

}  // namespace ozref::cli
