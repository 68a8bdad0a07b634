// The balanced residue of a big integer by GMP: the oracle of the twins' residue arithmetic
// (t-twin-arithmetic.cpp) and of the residues the fused-body tests make (t-fused-crt-unscale.cpp).
#pragma once
#include <gmpxx.h>

#include <cstdint>

namespace ozref::test {

inline int64_t gmp_balanced_residue(const mpz_class& x, int64_t m) {
  const int64_t r = static_cast<int64_t>(mpz_fdiv_ui(x.get_mpz_t(), static_cast<unsigned long>(m)));
  return r >= (m + 1) / 2 ? r - m : r;
}

}  // namespace ozref::test
