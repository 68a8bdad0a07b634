#include "exact/modular.hpp"

#include <cstdlib>

#include "common/vector_clones.hpp"

namespace ozref {

Modulus make_modulus(uint32_t prime, int max_shift) {
  Modulus md;
  const uint64_t p = prime;
  md.p = double(p);
  md.inverse = 1.0 / md.p;
  md.multiple = double(((uint64_t{1} << 52) / p) * p);
  md.pow2.resize(3 * (size_t(max_shift) + 1));
  uint64_t v = 1 % p;
  for (size_t s = 0; s < md.pow2.size() / 3; ++s, v = v * 2 % p)
    for (int t = 0; t < 3; ++t) md.pow2[3 * s + t] = double(v * ((uint64_t{1} << (18 * t)) % p) % p);
  return md;
}

// The significand in three 18-bit pieces, each times 2^(shift + 18 t) mod p, a sum below 2^46, one
// reduction to [0, p), the representative above p / 2 moved down by p, and the sign (a
// multiplication by -1, 0 or 1: exact).
OZREF_VECTOR_CLONES void balanced_residues(const ScaledIntegerMatrix& x, size_t first, size_t count,
                                           const Modulus& md, double* out) {
  const int64_t* significand = x.significand.data() + first;
  const uint16_t* shift = x.shift.data() + first;
  const double* pow2 = md.pow2.data();
  const double p = md.p, half = md.p / 2, inverse = md.inverse;
#pragma omp simd
  for (size_t e = 0; e < count; ++e) {
    const int64_t sig = significand[e];
    const int64_t mag = std::abs(sig);
    const int64_t s = 3 * int64_t{shift[e]};
    const double sum = double(mag & 0x3FFFF) * pow2[s] + double((mag >> 18) & 0x3FFFF) * pow2[s + 1] +
                       double(mag >> 36) * pow2[s + 2];
    const double r = reduce_mod(sum, p, inverse);  // md.reduce would read md in the loop: not vectorised
    out[e] = (r - p * double(r > half)) * double((sig > 0) - (sig < 0));
  }
}

}  // namespace ozref
