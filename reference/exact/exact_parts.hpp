// The parts of the fast exact GEMM (exact_gemm.cpp) that other exact products share: the lines'
// extents and the bound on the integer product, the one rounding of each element, the IEEE
// special values. exact/sliced_exact (the product the GPU computes) reuses them, so that the two
// define the same result by the same code.
#pragma once
#include <bit>
#include <climits>
#include <cstdint>
#include <span>
#include <vector>

#include "common/matrix.hpp"
#include "exact/exact_gemm.hpp"

namespace ozref::exact_parts {

// A finite FP64 as integer significand * 2^exponent with trailing zeros stripped (sig odd or 0).
struct Parts {
  bool negative = false;
  uint64_t sig = 0;
  int exp = 0;
  int top() const { return exp + std::bit_width(sig); }  // one past the leading bit's position
};

// Where the bits of one row of A (or column of B) lie, ignoring non-finite entries.
struct LineExtent {
  int top = INT_MIN;   // one past the highest set bit over the line
  int low = INT_MAX;   // the lowest set bit over the line
  bool nonfinite = false;
  double l1 = 0;       // the sum of the finite elements' magnitudes, rounded along the way
  double l2 = 0;       // the sum of their squares, likewise
  bool empty() const { return top == INT_MIN; }
};

struct Analysis {
  std::vector<LineExtent> rows, cols;
  long bits = 0;  // every element of the integer product is below 2^bits in magnitude
};

Parts parts_of(double x);
int ceil_log2(size_t k);
size_t words_for_bits(long bits);

// Every line's extent and the bound on the bits of the integer product (docs/exact.md).
Analysis analyse(const Matrix<double>& a, const Matrix<double>& b);

// Rounds the two's-complement accumulator acc (value acc * 2^base) into out's element idx:
// nearest, residual, residual_exact, nearest_fp32. Destroys acc; `scratch` is working space.
void finalize(std::span<uint64_t> acc, int base, std::vector<uint64_t>& scratch, ExactProduct& out, size_t idx);

// Overwrites the elements whose dot products meet a NaN or an infinity (exact/specials.hpp).
void apply_specials(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an, ExactProduct& out);

// Sizes out's buffers to mn elements, each a canary (NaN; residual_exact 0).
void fill_canaries(ExactProduct& out, size_t mn);

}  // namespace ozref::exact_parts
