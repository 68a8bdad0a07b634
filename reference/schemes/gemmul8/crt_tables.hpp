// GEMMul8 v2.0.14's CRT constants (src/table.hpp, INT8), derived here from their definitions and
// held against its published values (tests/schemes/t-gemmul8.cpp): for N moduli with product P,
// weights w_i = q_i P / p_i (q_i = (P/p_i)^-1 mod p_i, in [0, p_i)),
//   N <= 6: the weights as doubles (exact: P < 2^48), P as -P, invP = RN(1/P);
//   N >= 7: hi_i = w_i truncated to a multiple of 2^q, q = bits(P) - 53 + ceil(log2 rho)
//           (rho = sum floor(p_i / 2), so that sum hi_i r_i is exact), lo_i = RN(w_i - hi_i),
//           -P as RN(-P) + RN(-P - RN(-P)), invP = RN(1/P).
#pragma once
#include <vector>

#include "schemes/common/crt.hpp"

namespace ozref::schemes::gemmul8 {

struct CrtTables {
  bool double_double = false;      // N >= 7
  std::vector<double> hi, lo;      // lo: N >= 7 only
  double minus_p_hi = 0, minus_p_lo = 0, inv_p = 0;
};

CrtTables crt_tables(const Crt& crt);

// inverse_scaling_real.hpp's reconstruction of one element from its N residues (before the
// power-of-two unscaling): x = sum fma(hi_i, r_i, x), y = sum fma(lo_i, r_i, y) in index order,
// quot = rint(invP x), result fma(-P_lo, quot, fma(-P_hi, quot, x) + y); for N <= 6
// fma(-P, rint(invP x), x).
double reconstruct(const CrtTables& t, const int16_t* const* residues, size_t at);

}  // namespace ozref::schemes::gemmul8
