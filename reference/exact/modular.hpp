// Arithmetic modulo a modulus below 2^26 on integers held exactly in doubles, so that the compiler
// vectorises the loops that use it; and the balanced residues of a matrix of wide integers.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "exact/crt_gemm.hpp"

namespace ozref {

// x mod p in [0, p) for an integer |x| <= 2^52 + 2^51 with |x| / p below 2^41 (inverse = 1 / p,
// p < 2^26): the quotient rounded to nearest (by adding and subtracting 1.5 * 2^52) is within one
// half and a little of x / p, so q * p is below 2^53 and exact, and so is the remainder, in (-p, p)
// before the correction. Arithmetic, not a branch, so that the compiler vectorises the loops around it.
inline double reduce_mod(double x, double p, double inverse) {
  const double q = (x * inverse + 0x1.8p52) - 0x1.8p52;
  const double r = x - q * p;
  return r + p * double(r < 0);
}

// One modulus with the tables its residues need.
struct Modulus {
  double p = 0;
  double inverse = 0;           // 1 / p, for the quotient estimate
  double multiple = 0;          // the largest multiple of p up to 2^52
  std::vector<double> pow2;     // 2^(s + 18 t) mod p at [3 s + t], t = 0, 1, 2, every shift s

  double reduce(double x) const { return reduce_mod(x, p, inverse); }
  // The same for a DGEMM result, an integer of magnitude at most 2^53.
  double reduce_sum(double x) const {
    const double nearer = x - std::copysign(multiple, x);
    return reduce(std::fabs(x) > 0x1p52 ? nearer : x);
  }
};

Modulus make_modulus(uint32_t p, int max_shift);  // p below 2^26, tables for shifts up to max_shift

// out[e] = a residue of element first + e of x of magnitude at most p / 2, for count elements.
void balanced_residues(const ScaledIntegerMatrix& x, size_t first, size_t count, const Modulus& md, double* out);

}  // namespace ozref
