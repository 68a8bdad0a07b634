#include "exact/rational_oracle.hpp"

#include <string>

#include <cmath>
#include <limits>

namespace ozref::oracle {

mpq_class pow2(long e) {
  mpq_class r = 1;
  if (e >= 0)
    mpz_mul_2exp(r.get_num_mpz_t(), r.get_num_mpz_t(), static_cast<mp_bitcnt_t>(e));
  else
    mpz_mul_2exp(r.get_den_mpz_t(), r.get_den_mpz_t(), static_cast<mp_bitcnt_t>(-e));
  return r;
}

namespace {

// floor(log2 x) for x > 0.
long floor_log2(const mpq_class& x) {
  long e = static_cast<long>(mpz_sizeinbase(x.get_num_mpz_t(), 2)) -
           static_cast<long>(mpz_sizeinbase(x.get_den_mpz_t(), 2));
  while (x < pow2(e)) --e;
  while (x >= pow2(e + 1)) ++e;
  return e;
}

mpq_class exact(double x) {
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), x);
  return q;
}

}  // namespace

mpq_class rational(const ExactValue& v) {
  mpq_class q(mpz_class(std::to_string(v.significand)));  // 64-bit significands: no long on every host
  if (v.exponent >= 0) q *= mpq_class(mpz_class(1) << v.exponent);
  else q /= mpq_class(mpz_class(1) << -v.exponent);
  return v.negative ? mpq_class(-q) : q;
}

BinaryFormat binary64() {
  return {53, -1022, exact(std::numeric_limits<double>::max())};
}
BinaryFormat binary32() {
  return {24, -126, exact(static_cast<double>(std::numeric_limits<float>::max()))};
}

Rounded round(const mpq_class& x, const BinaryFormat& format, bool nearest_even) {
  Rounded r;
  if (x == 0) return r;
  const mpq_class ax = abs(x);
  const long e = std::max(floor_log2(ax), static_cast<long>(format.emin));
  const mpq_class quantum = pow2(e - (format.precision - 1));
  mpz_class n;
  const mpq_class scaled = ax / quantum;
  mpz_fdiv_q(n.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
  if (nearest_even) {
    const mpq_class twice_rem = 2 * (scaled - n);
    if (twice_rem > 1 || (twice_rem == 1 && mpz_odd_p(n.get_mpz_t()))) n += 1;
  }
  mpq_class mag = mpq_class(n) * quantum;
  if (mag > format.max_finite) {
    r.overflow = true;
    return r;
  }
  r.value = x < 0 ? mpq_class(-mag) : mag;
  return r;
}

ExactElement dot(const double* a, size_t a_stride, const double* b, size_t b_stride, size_t k) {
  ExactElement out;
  bool nan = false, plus_inf = false, minus_inf = false;
  mpq_class sum = 0;
  for (size_t i = 0; i < k; ++i) {
    const double x = a[i * a_stride], y = b[i * b_stride];
    if (std::isnan(x) || std::isnan(y)) {
      nan = true;
    } else if (std::isinf(x) || std::isinf(y)) {
      if (x == 0 || y == 0) {
        nan = true;
      } else {
        const bool negative = std::signbit(x) != std::signbit(y);
        (negative ? minus_inf : plus_inf) = true;
      }
    } else {
      sum += exact(x) * exact(y);
    }
  }
  if (nan || (plus_inf && minus_inf)) {
    out.kind = ExactElement::NaN;
  } else if (plus_inf) {
    out.kind = ExactElement::PlusInfinity;
  } else if (minus_inf) {
    out.kind = ExactElement::MinusInfinity;
  } else {
    out.value = sum;
  }
  return out;
}

Matrix<ExactElement> gemm(const Matrix<double>& a, const Matrix<double>& b) {
  Matrix<ExactElement> c(a.rows, b.cols);
  if (a.cols == 0) return c;  // empty sums: exact zeros
  for (size_t i = 0; i < a.rows; ++i)
    for (size_t j = 0; j < b.cols; ++j)
      c(i, j) = dot(a.data.data() + i * a.cols, 1, b.data.data() + j, b.cols, a.cols);
  return c;
}

namespace {
template <typename T>
T to_host(const ExactElement& e, const BinaryFormat& format) {
  switch (e.kind) {
    case ExactElement::NaN: return std::numeric_limits<T>::quiet_NaN();
    case ExactElement::PlusInfinity: return std::numeric_limits<T>::infinity();
    case ExactElement::MinusInfinity: return -std::numeric_limits<T>::infinity();
    case ExactElement::Finite: break;
  }
  const Rounded r = round(e.value, format, true);
  if (r.overflow) return e.value > 0 ? std::numeric_limits<T>::infinity()
                                     : -std::numeric_limits<T>::infinity();
  // The rounded value is representable, so the conversion below is exact. A nonzero value that
  // rounds to zero keeps its sign (IEEE underflow); an exact zero is +0.
  const T t = static_cast<T>(r.value.get_d());
  return (t == 0 && e.value < 0) ? -t : t;
}
}  // namespace

double to_double(const ExactElement& e) { return to_host<double>(e, binary64()); }
float to_float(const ExactElement& e) { return to_host<float>(e, binary32()); }

}  // namespace ozref::oracle
