// The crt twins' tables (twins.hpp's CrtTables) from the CPU's Crt: the weights q_t P / p_t and P as
// 64-bit words, the weights' 30-bit limbs (the exact sum's products stay 32 x 32 -> 64 bits), their
// nearest doubles, and the double-double tables. Host code (GMP).
#pragma once
#include <gmpxx.h>

#include <algorithm>

#include "schemes/common/crt.hpp"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {

// The 64-bit words of P's CRT integers: at least 2, and room for a sign bit.
inline size_t crt_words(const schemes::Crt& crt) { return std::max<size_t>(2, (mpz_sizeinbase(crt.product().get_mpz_t(), 2) + 1 + 63) / 64); }

inline CrtTables crt_tables(const schemes::Crt& crt) {
  CrtTables t;
  t.words = crt_words(crt);
  const size_t limbs = crt_limbs(t.words);
  auto put_words = [&](const mpz_class& x, std::vector<uint64_t>& into) {
    std::vector<uint64_t> w(t.words, 0);
    size_t count = 0;
    mpz_export(w.data(), &count, -1, sizeof(uint64_t), 0, 0, x.get_mpz_t());
    into.insert(into.end(), w.begin(), w.end());
  };
  for (const mpz_class& w : crt.weights()) {
    put_words(w, t.weights);
    t.weights_fp64.push_back(w.get_d());
    for (size_t j = 0; j < limbs; ++j) t.weight_limbs.push_back(static_cast<int32_t>(mpz_class((w >> static_cast<mp_bitcnt_t>(30 * j)) & 0x3FFFFFFF).get_ui()));
  }
  put_words(crt.product(), t.product);
  const schemes::Crt::DoubleDoubleTables dd = crt.double_double_tables();
  t.inv_p = dd.inv_p, t.w_hi = dd.w_hi, t.w_lo = dd.w_lo, t.p_hi = dd.p_hi, t.p_lo = dd.p_lo;
  return t;
}

}  // namespace ozref::device::ozaki2
