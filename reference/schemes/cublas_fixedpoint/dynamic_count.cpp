#include "schemes/cublas_fixedpoint/dynamic_count.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

namespace ozref::schemes::cublas_fixedpoint {
namespace {

constexpr int kZero = INT_MIN / 4;  // a zero's exponent: below every sum of two real exponents

int exponent(double x) {
  if (x == 0) return kZero;
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  return e;
}

// One line's exponents summarized: its largest, and per estimate block the largest and smallest.
struct LineExponents {
  int top = kZero;
  std::vector<int> block_max, block_min;
};

// Line l of a row-major matrix: element c at x[l * line_step + c * elem_step], c < k.
LineExponents summarize(const double* x, size_t l, size_t line_step, size_t elem_step, size_t k) {
  LineExponents s;
  for (size_t c0 = 0; c0 < k; c0 += kEstimateBlock) {
    int hi = kZero, lo = INT_MAX;
    for (size_t c = c0; c < std::min(k, c0 + kEstimateBlock); ++c) {
      const int e = exponent(x[l * line_step + c * elem_step]);
      hi = std::max(hi, e), lo = std::min(lo, e);
    }
    s.block_max.push_back(hi), s.block_min.push_back(lo), s.top = std::max(s.top, hi);
  }
  return s;
}

// In the estimate a zero's exponent counts as -4194: where every block holds a zero in both lines
// that gives the 4249 and 4279 cuBLAS reported (docs/third-party.md); wherever a term of two nonzero
// exponents exists (each at least -1074), that term is the larger.
constexpr int kZeroInEstimate = -4194;
int estimated(int e) { return e == kZero ? kZeroInEstimate : e; }

// z: the largest over blocks of max(maxA + minB, minA + maxB).
int product_estimate(const LineExponents& r, const LineExponents& c) {
  int z = INT_MIN;
  for (size_t q = 0; q < r.block_max.size(); ++q)
    z = std::max({z, estimated(r.block_max[q]) + estimated(c.block_min[q]), estimated(r.block_min[q]) + estimated(c.block_max[q])});
  return z;
}

}  // namespace

int dynamic_bit_count(const double* a, const double* b, size_t m, size_t n, size_t k) {
  std::vector<LineExponents> rows, cols;
  for (size_t i = 0; i < m; ++i) rows.push_back(summarize(a, i, k, 1, k));
  for (size_t j = 0; j < n; ++j) cols.push_back(summarize(b, j, 1, n, k));
  int esc = 0;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      if (rows[i].top == kZero || cols[j].top == kZero) continue;  // C(i, j) = 0 whatever the count
      esc = std::max(esc, rows[i].top + cols[j].top - product_estimate(rows[i], cols[j]));
    }
  return 54 + esc;
}

}  // namespace ozref::schemes::cublas_fixedpoint
