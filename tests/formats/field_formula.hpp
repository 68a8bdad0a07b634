// The test-side oracle for small formats: each encoding's value computed from the field formula
// with GMP rationals, written apart from reference/formats (which works on integer shifts).
#pragma once
#include <gmpxx.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "formats/format.hpp"

namespace ozref::test {

enum class Kind { Finite, Inf, NaN };

struct FormulaValue {
  Kind kind = Kind::Finite;
  bool negative = false;
  mpq_class value;  // signed value for finite encodings (zero for both zeros)
};

inline mpq_class power_of_two(long e) {
  mpq_class r = 1;
  if (e >= 0) mpz_mul_2exp(r.get_num_mpz_t(), r.get_num_mpz_t(), e);
  else mpz_mul_2exp(r.get_den_mpz_t(), r.get_den_mpz_t(), -e);
  return r;
}

inline FormulaValue formula_value(const FormatSpec& f, uint64_t bits) {
  FormulaValue v;
  const int m = f.fraction_bits;
  const uint64_t sign = f.is_signed ? (bits >> (f.bits - 1)) & 1 : 0;
  const uint64_t e = (bits >> m) & ((uint64_t{1} << f.exponent_bits) - 1);
  const uint64_t frac = bits & ((uint64_t{1} << m) - 1);
  const uint64_t e_ones = (uint64_t{1} << f.exponent_bits) - 1;
  const uint64_t f_ones = (uint64_t{1} << m) - 1;
  v.negative = sign;
  if (f.nan_rule == NanRule::ExponentAllOnes && e == e_ones) {
    v.kind = frac ? Kind::NaN : Kind::Inf;
    return v;
  }
  if (f.nan_rule == NanRule::AllOnes && e == e_ones && frac == f_ones) {
    v.kind = Kind::NaN;
    return v;
  }
  mpq_class significand = mpq_class(frac) / power_of_two(m);
  long exponent;
  if (e == 0 && f.has_subnormals) {
    exponent = 1 - f.bias;  // subnormal: 0.fraction * 2^(1 - bias)
  } else {
    significand += 1;       // normal: 1.fraction * 2^(e - bias)
    exponent = static_cast<long>(e) - f.bias;
  }
  v.value = significand * power_of_two(exponent);
  if (sign) v.value = -v.value;
  return v;
}

// Every finite non-negative encoding, sorted by value (+0 only, not -0).
struct Ladder {
  std::vector<uint64_t> bits;
  std::vector<mpq_class> values;
};

inline Ladder positive_ladder(const FormatSpec& f) {
  Ladder l;
  std::vector<std::pair<mpq_class, uint64_t>> items;
  const uint64_t limit = uint64_t{1} << (f.exponent_bits + f.fraction_bits);  // magnitudes only
  for (uint64_t b = 0; b < limit; ++b) {
    const FormulaValue v = formula_value(f, b);
    if (v.kind == Kind::Finite) items.emplace_back(v.value, b);
  }
  std::sort(items.begin(), items.end());
  for (auto& [v, b] : items) {
    l.values.push_back(v);
    l.bits.push_back(b);
  }
  return l;
}

}  // namespace ozref::test
