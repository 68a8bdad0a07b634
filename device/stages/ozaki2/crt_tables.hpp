// The crt twins' tables (twins.hpp's CrtTables) from the CPU's Crt: the weights q_t P / p_t in
// 32-bit limbs, w_t / P, P as 64-bit words, and the double-double tables. Host code (GMP).
#pragma once
#include <gmpxx.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "schemes/common/crt.hpp"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {

// The 64-bit words of P's CRT integers: at least 2, and room for a sign bit.
inline size_t crt_words(const schemes::Crt& crt) { return std::max<size_t>(2, (mpz_sizeinbase(crt.product().get_mpz_t(), 2) + 1 + 63) / 64); }

inline CrtTables crt_tables(const schemes::Crt& crt) {
  CrtTables t;
  t.words = crt_words(crt);
  int64_t residue_magnitudes = 0;  // R = sum_t max |r_t|: crt_element.cuh's limb sums are exact while R < 2^18
  for (int64_t m : crt.moduli()) residue_magnitudes += m / 2;
  if (residue_magnitudes >= (int64_t{1} << 18))
    throw std::invalid_argument("crt twin: the residues' magnitudes sum to " + std::to_string(residue_magnitudes) +
                                ", beyond the 2^18 its FP64 limb sums hold exactly");
  const mpz_class& P = crt.product();
  for (const mpz_class& w : crt.weights()) {
    for (size_t j = 0; j < 2 * t.words; ++j) t.weight_limbs.push_back(mpz_class((w >> static_cast<mp_bitcnt_t>(32 * j)) & 0xFFFFFFFFu).get_d());
    mpq_class fraction(w, P);
    fraction.canonicalize();
    t.weight_fractions.push_back(fraction.get_d());
  }
  t.product.assign(t.words, 0);
  mpz_export(t.product.data(), nullptr, -1, sizeof(uint64_t), 0, 0, P.get_mpz_t());
  const schemes::Crt::DoubleDoubleTables dd = crt.double_double_tables();
  t.inv_p = dd.inv_p, t.w_hi = dd.w_hi, t.w_lo = dd.w_lo, t.p_hi = dd.p_hi, t.p_lo = dd.p_lo;
  return t;
}

}  // namespace ozref::device::ozaki2
