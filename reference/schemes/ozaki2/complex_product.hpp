// How a complex Ozaki-II run multiplies its residue planes modulo each modulus m:
//   3m        planes re, im, re + im; products T1 = re re', T2 = im im', T3 = (re + im)(re' + im');
//             Re = T1 - T2, Im = T3 - T1 - T2. Three GEMMs per modulus, any moduli.
//   gaussian  planes z = re + iota im and w = re - iota im, where iota^2 = -1 mod m (the Gaussian
//             moduli, moduli.hpp); products Z = z z' = Re + iota Im and W = w w' = Re - iota Im,
//             so Re = (Z + W) / 2 and Im = (W - Z) iota / 2 mod m. Two GEMMs per modulus.
// Both give the residues of the same Re C' and Im C', so the CRT and its bound do not change.
#pragma once
#include <cstdint>
#include <string>

namespace ozref::schemes {

enum class ComplexProduct { ThreeM, Gaussian };
ComplexProduct parse_complex_product(const std::string& name);  // "3m", "gaussian"; InputError otherwise
std::string to_string(ComplexProduct p);

// The arithmetic of a Gaussian modulus on balanced residues (|x| <= m / 2, m <= 256: every
// intermediate below 2^25).
struct GaussianModulus {
  explicit GaussianModulus(int64_t modulus);
  int64_t m, iota;
  int64_t half;       // (m + 1) / 2, the inverse of 2 mod m (m is odd)
  int64_t iota_half;  // iota / 2 mod m, balanced
  // The planes z (sign +1) and w (sign -1) of the parts re, im.
  int64_t plane(int64_t re, int64_t im, int sign) const;
  // Re and Im from the plane products Z and W.
  int64_t real(int64_t z, int64_t w) const;
  int64_t imag(int64_t z, int64_t w) const;
};

}  // namespace ozref::schemes
