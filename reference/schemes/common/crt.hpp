// CRT reconstruction of an integer from its balanced residues, three ways:
//   exact   big-integer weighted sum reduced into (-P/2, P/2] (the reference);
//   garner  balanced mixed-radix digits (Garner), evaluated exactly;
//   dd      GEMMul8's form: acc = sum r_i * (q_i P/p_i) with the weights split so that the high
//           sum is exact, quot = rint(acc * invP), acc - quot * P in two doubles. Not exact: its
//           error is a few units of 2^-53 P (the stage checks it against that bound).
#pragma once
#include <gmpxx.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ozref::schemes {

enum class CrtVariant { Exact, Garner, DoubleDouble };
CrtVariant parse_crt(const std::string& name);  // InputError for unknown names
std::string to_string(CrtVariant v);

class Crt {
 public:
  explicit Crt(std::vector<int64_t> moduli);
  const mpz_class& product() const { return product_; }
  const std::vector<int64_t>& moduli() const { return moduli_; }
  // The integer in (-P/2, P/2] with these balanced residues (exact and garner variants).
  mpz_class exact(const int32_t* residues) const;
  mpz_class garner(const int32_t* residues) const;
  // GEMMul8's double-double evaluation: returns hi + lo (two doubles).
  void double_double(const int32_t* residues, double& hi, double& lo) const;
  // The exact or Garner integer in 128-bit arithmetic (the same value as exact() or garner()),
  // available when P < 2^126 (up to 16 INT8 moduli); the fast path of the crt stage.
  bool fits_int128() const { return fits_int128_; }
  __int128 exact_int128(const int32_t* residues) const;
  // exact_int128 of `count` integers whose residues modulo p_i are planes[i][0 .. count).
  void exact_int128(const int16_t* const* planes, size_t count, __int128* out) const;
  __int128 garner_int128(const int32_t* residues) const;
  // What a GPU twin of the crt stage needs: the weights q_i P / p_i, and the double-double form's
  // split weights, P and 1/P.
  const std::vector<mpz_class>& weights() const { return weights_; }
  struct DoubleDoubleTables {
    std::vector<double> w_hi, w_lo;
    double p_hi, p_lo, inv_p;
  };
  DoubleDoubleTables double_double_tables() const { return {w_hi_, w_lo_, p_hi_, p_lo_, inv_p_}; }

 private:
  std::vector<int64_t> moduli_;
  mpz_class product_, half_;
  std::vector<mpz_class> weights_;          // q_i * P / p_i, q_i = (P/p_i)^-1 mod p_i
  // Garner: radix_mod_[i][j] = (p_0 ... p_{j-1}) mod p_i for j < i, radix_inverse_[i] = its inverse
  // for j = i: the digit d_i = (r_i - sum_j d_j radix_mod_[i][j]) radix_inverse_[i] mod p_i, balanced.
  std::vector<std::vector<int64_t>> radix_mod_;
  std::vector<int64_t> radix_inverse_;
  bool fits_int128_ = false;
  __int128 product128_ = 0;
  std::vector<std::array<double, 4>> weight_limbs_;  // weights_ when P < 2^126: 32-bit limbs, low first
  // The member of (-P/2, P/2] congruent to S given S mod 2^128 and an FP64 estimate of S.
  __int128 representative(unsigned __int128 sum, double estimate) const;
  // Garner's balanced mixed-radix digits of the residues.
  void garner_digits(const int32_t* residues, int64_t* digits) const;
  std::vector<double> w_hi_, w_lo_;          // weights split: hi exact times any residue
  double p_hi_ = 0, p_lo_ = 0, inv_p_ = 0;
};

}  // namespace ozref::schemes
