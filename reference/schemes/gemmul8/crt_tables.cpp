#include "schemes/gemmul8/crt_tables.hpp"

#include <cmath>

#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes::gemmul8 {

CrtTables crt_tables(const Crt& crt) {
  CrtTables t;
  const size_t n = crt.moduli().size();
  const mpz_class& p = crt.product();
  t.double_double = n >= 7;
  t.minus_p_hi = nearest_double(mpz_class(-p), 0);
  t.minus_p_lo = t.double_double ? nearest_double(mpz_class(-p - mpz_class(t.minus_p_hi)), 0) : 0.0;
  mpz_class scaled = (mpz_class(1) << 300) / p;  // 1/P to 300 bits, truncated: RN below needs no more
  t.inv_p = nearest_double(scaled, -300);
  long rho = 0;
  for (int64_t m : crt.moduli()) rho += static_cast<long>(m / 2);
  const long q = static_cast<long>(mpz_sizeinbase(p.get_mpz_t(), 2)) - 53 + static_cast<long>(std::ceil(std::log2(static_cast<double>(rho))));
  for (const mpz_class& w : crt.weights()) {
    if (!t.double_double) {
      t.hi.push_back(nearest_double(w, 0));
      continue;
    }
    const mpz_class hi = (w >> q) << q;  // w > 0: truncation
    t.hi.push_back(nearest_double(hi, 0));
    t.lo.push_back(nearest_double(mpz_class(w - hi), 0));
  }
  return t;
}

double reconstruct(const CrtTables& t, const int16_t* const* residues, size_t at) {
  const size_t n = t.hi.size();
  double x = 0, y = 0;
  for (size_t i = 0; i < n; ++i) {
    const double r = residues[i][at];
    x = std::fma(t.hi[i], r, x);
    if (t.double_double) y = std::fma(t.lo[i], r, y);
  }
  const double quot = std::nearbyint(t.inv_p * x);  // rint: ties to even
  if (!t.double_double) return std::fma(t.minus_p_hi, quot, x);
  return std::fma(t.minus_p_lo, quot, std::fma(t.minus_p_hi, quot, x) + y);
}

}  // namespace ozref::schemes::gemmul8
