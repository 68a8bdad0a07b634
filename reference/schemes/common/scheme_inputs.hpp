// A scheme's operands as its pipeline holds them (the arrays input.a and input.b), and as the real
// product a run's result is measured against.
#pragma once
#include <cstddef>
#include <vector>

#include "common/matrix.hpp"
#include "schemes/pipeline/arrays.hpp"

namespace ozref::schemes {

// A scheme's inputs as the arrays input.a and input.b: one part each (real), or two (re, im).
Arrays input_arrays(const std::vector<MatrixView<double>>& a_parts, const std::vector<MatrixView<double>>& b_parts);

// A complex product as one real product: [A_re -A_im; A_im A_re] [B_re; B_im] = [Re C; Im C].
struct StackedComplex {
  Matrix<double> a, b;
};
StackedComplex stack_complex(MatrixView<double> a_re, MatrixView<double> a_im, MatrixView<double> b_re,
                             MatrixView<double> b_im);
// The real product a run's result is measured against: A B, or for two parts the stacked complex
// product (Re C over Im C).
StackedComplex real_operands(const Tensor& a, const Tensor& b, size_t parts, size_t m, size_t n, size_t k);

}  // namespace ozref::schemes
