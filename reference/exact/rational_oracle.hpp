// The slow exact oracle: GMP rationals, written to be obviously right rather than fast. It decodes
// host doubles with mpq_set_d (independent of ozref's own decoder), sums products exactly, and
// rounds by the textbook definition. Every fast exact method in ozref is tested against it.
#pragma once
#include <gmpxx.h>

#include <cstdint>

#include "common/matrix.hpp"
#include "formats/value.hpp"

namespace ozref::oracle {

// A binary floating-point format as the textbook defines it: precision p (hidden bit included),
// smallest normal exponent emin, and the largest finite magnitude.
struct BinaryFormat {
  int precision;
  int emin;
  mpq_class max_finite;
};
BinaryFormat binary64();
// 2^e exactly.
mpq_class pow2(long e);
BinaryFormat binary32();

struct Rounded {
  mpq_class value;        // the rounded value (when !overflow)
  bool overflow = false;  // |rounded| would exceed max_finite
};

// The rational a finite decoded value stands for: (-1)^negative * significand * 2^exponent.
mpq_class rational(const ExactValue& v);

// Rounds x to the format: to nearest with ties to even, or toward zero.
Rounded round(const mpq_class& x, const BinaryFormat& format, bool nearest_even);

// An IEEE 754 element result: a finite rational, an infinity, or NaN.
struct ExactElement {
  enum Kind { Finite, PlusInfinity, MinusInfinity, NaN } kind = Finite;
  mpq_class value;
};

// The exact value of sum_k a[k] * b[k] with IEEE special-value rules (NaN in, NaN out; Inf * 0 is
// NaN; +Inf + -Inf is NaN; otherwise any infinite product makes the result that infinity).
ExactElement dot(const double* a, size_t a_stride, const double* b, size_t b_stride, size_t k);
// The exact product A*B, element by element.
Matrix<ExactElement> gemm(const Matrix<double>& a, const Matrix<double>& b);

// The double nearest to the exact element (ties to even; overflow to +-Inf as IEEE RNE does).
double to_double(const ExactElement& e);
float to_float(const ExactElement& e);

}  // namespace ozref::oracle
