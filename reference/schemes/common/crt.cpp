#include "schemes/common/crt.hpp"

#include <algorithm>
#include <cmath>

#include "common/named_choice.hpp"
#include "common/vector_clones.hpp"
#include "schemes/common/residue.hpp"

namespace ozref::schemes {
namespace {

int64_t inverse_mod(int64_t a, int64_t m) {
  mpz_class r;
  const mpz_class aa = static_cast<long>(((a % m) + m) % m), mm = static_cast<long>(m);
  mpz_invert(r.get_mpz_t(), aa.get_mpz_t(), mm.get_mpz_t());
  return r.get_si();
}

int64_t mod_of(const mpz_class& x, int64_t m) { return mpz_fdiv_ui(x.get_mpz_t(), static_cast<unsigned long>(m)); }

double multiple_below(const mpz_class& w, long quantum_log2) {  // floor(w / 2^q) * 2^q
  if (quantum_log2 <= 0) return w.get_d();
  const mpz_class t = w >> static_cast<mp_bitcnt_t>(quantum_log2);
  return std::ldexp(t.get_d(), static_cast<int>(quantum_log2));
}

// The weighted sums of a block of elements v0 .. v0 + len of the residue planes, one per 32-bit
// limb of the weights, in FP64: |r| <= 2^15 (any int16, a trace's too), a limb below 2^32 and up
// to 64 moduli keep every partial sum an integer below 2^53, so each is exact (FP64 multiplies and
// adds vectorise where 64-bit integer multiplies do not). S = s0 + s1 2^32 + s2 2^64 + s3 2^96.
OZREF_VECTOR_CLONES void weighted_sums(const int16_t* const* planes, size_t moduli, size_t v0, size_t len,
                                       const std::array<double, 4>* limbs, std::array<double*, 4> sums) {
  for (double* s : sums) std::fill(s, s + len, 0.0);
  for (size_t i = 0; i < moduli; ++i) {
    const int16_t* r = planes[i] + v0;
    const double w0 = limbs[i][0], w1 = limbs[i][1], w2 = limbs[i][2], w3 = limbs[i][3];
    double *s0 = sums[0], *s1 = sums[1], *s2 = sums[2], *s3 = sums[3];
    for (size_t v = 0; v < len; ++v) {
      const double x = r[v];
      s0[v] += x * w0;
      s1[v] += x * w1;
      s2[v] += x * w2;
      s3[v] += x * w3;
    }
  }
}

}  // namespace

CrtVariant parse_crt(const std::string& name) {
  return named_choice<CrtVariant>(name, "CRT variant",
                                  {{"exact", CrtVariant::Exact}, {"garner", CrtVariant::Garner}, {"dd", CrtVariant::DoubleDouble}});
}

std::string to_string(CrtVariant v) {
  switch (v) {
    case CrtVariant::Exact: return "exact";
    case CrtVariant::Garner: return "garner";
    case CrtVariant::DoubleDouble: return "dd";
  }
  return "";
}

Crt::Crt(std::vector<int64_t> moduli) : moduli_(std::move(moduli)) {
  product_ = 1;
  for (int64_t m : moduli_) product_ *= static_cast<long>(m);
  half_ = product_ / 2;
  int64_t rho = 0;
  for (int64_t m : moduli_) rho += m / 2;
  // GEMMul8's split: the high parts are multiples of one quantum 2^q with q = bits(P) - 53 +
  // ceil(log2 rho), rho = sum floor(p_i / 2), so sum hi_i r_i is exact in a double.
  const long quantum = static_cast<long>(mpz_sizeinbase(product_.get_mpz_t(), 2)) - 53 +
                       static_cast<long>(std::ceil(std::log2(static_cast<double>(rho))));
  for (size_t i = 0; i < moduli_.size(); ++i) {
    const mpz_class cofactor = product_ / static_cast<long>(moduli_[i]);
    const int64_t q = inverse_mod(mod_of(cofactor, moduli_[i]), moduli_[i]);
    weights_.push_back(cofactor * static_cast<long>(q));
    w_hi_.push_back(multiple_below(weights_.back(), quantum));
    w_lo_.push_back(mpq_class(weights_.back() - mpz_class(mpq_class(w_hi_.back()))).get_d());
    std::vector<int64_t> radix(i);
    int64_t run = 1 % moduli_[i];  // (p_0 ... p_{j-1}) mod p_i
    for (size_t j = 0; j < i; ++j) {
      radix[j] = run;
      run = run * (moduli_[j] % moduli_[i]) % moduli_[i];
    }
    radix_mod_.push_back(radix);
    radix_inverse_.push_back(inverse_mod(run, moduli_[i]));
  }
  p_hi_ = product_.get_d();
  p_lo_ = mpq_class(product_ - mpz_class(mpq_class(p_hi_))).get_d();
  inv_p_ = 1.0 / p_hi_;
  fits_int128_ = mpz_sizeinbase(product_.get_mpz_t(), 2) <= 126 && moduli_.size() <= 64;
  if (fits_int128_) {
    product128_ = 1;
    for (int64_t m : moduli_) product128_ *= m;
    const mpz_class mask = (mpz_class(1) << 32) - 1;
    for (const mpz_class& w : weights_)  // w < P < 2^126: four 32-bit limbs
      weight_limbs_.push_back({mpz_class(w & mask).get_d(), mpz_class((w >> 32) & mask).get_d(), mpz_class((w >> 64) & mask).get_d(),
                               mpz_class(w >> 96).get_d()});
  }
}

mpz_class Crt::exact(const int32_t* r) const {
  mpz_class x = 0;
  for (size_t i = 0; i < moduli_.size(); ++i) x += weights_[i] * static_cast<long>(r[i]);
  mpz_fdiv_r(x.get_mpz_t(), x.get_mpz_t(), product_.get_mpz_t());  // [0, P)
  if (x > half_) x -= product_;                                      // (-P/2, P/2]
  return x;
}

void Crt::garner_digits(const int32_t* r, int64_t* digit) const {
  // x = sum_j d_j (p_0 ... p_{j-1}); modulo p_i the digits below i are known, so d_i follows from
  // one sum (|terms| < 2^16, no overflow) and one product with the inverse.
  for (size_t i = 0; i < moduli_.size(); ++i) {
    int64_t partial = 0;
    for (size_t j = 0; j < i; ++j) partial += digit[j] * radix_mod_[i][j];
    digit[i] = balanced_residue(balanced_residue(r[i] - partial, moduli_[i]) * radix_inverse_[i], moduli_[i]);
  }
}

__int128 Crt::garner_int128(const int32_t* r) const {
  int64_t digit[64];
  garner_digits(r, digit);
  __int128 x = 0;
  for (size_t i = moduli_.size(); i-- > 0;) x = x * moduli_[i] + digit[i];  // Horner, |x| < P/2 + P_i
  return x;
}

// The weighted sum S = sum r_i w_i is known modulo 2^128 (its exact limb sums combined) and
// approximately (an FP64 sum of them, error below 2^-30 P for up to 64 moduli); its quotient q by P,
// rounded to nearest from the estimate, is off by at most one, so S - q P lies in (-P, P) - inside
// the signed 128-bit range (P < 2^126), where the wrapped difference is the true one - and one
// step moves it into (-P/2, P/2].
__int128 Crt::representative(unsigned __int128 sum, double estimate) const {
  const int64_t q = std::llrint(estimate * inv_p_);  // |q| <= 2^15 times the modulus count
  __int128 x = static_cast<__int128>(sum - static_cast<unsigned __int128>(static_cast<__int128>(q)) * static_cast<unsigned __int128>(product128_));
  const __int128 half = product128_ / 2;
  if (x > half) x -= product128_;
  if (x <= half - product128_) x += product128_;
  return x;
}

__int128 Crt::exact_int128(const int32_t* r) const {
  // One element through the block form (balanced residues are below 2^15 in magnitude).
  int16_t residue[64];
  const int16_t* planes[64];
  for (size_t i = 0; i < moduli_.size(); ++i) residue[i] = static_cast<int16_t>(r[i]), planes[i] = &residue[i];
  __int128 x;
  exact_int128(planes, 1, &x);
  return x;
}

void Crt::exact_int128(const int16_t* const* planes, size_t count, __int128* out) const {
  constexpr size_t kBlock = 256;
  double s0[kBlock], s1[kBlock], s2[kBlock], s3[kBlock];
  for (size_t v0 = 0; v0 < count; v0 += kBlock) {
    const size_t len = std::min(kBlock, count - v0);
    weighted_sums(planes, moduli_.size(), v0, len, weight_limbs_.data(), {s0, s1, s2, s3});
    for (size_t v = 0; v < len; ++v) {
      // The limb sums are exact integers below 2^53: their int64 values are the true ones.
      const auto wide = [](double x) { return static_cast<unsigned __int128>(static_cast<__int128>(static_cast<int64_t>(x))); };
      const unsigned __int128 sum = wide(s0[v]) + (wide(s1[v]) << 32) + (wide(s2[v]) << 64) + (wide(s3[v]) << 96);
      const double estimate = s0[v] + s1[v] * 0x1p32 + s2[v] * 0x1p64 + s3[v] * 0x1p96;  // within 2^-30 P
      out[v0 + v] = representative(sum, estimate);
    }
  }
}

mpz_class Crt::garner(const int32_t* r) const {
  std::vector<int64_t> digit(moduli_.size());
  garner_digits(r, digit.data());
  mpz_class x = 0, radix = 1;
  for (size_t i = 0; i < moduli_.size(); ++i) {
    x += radix * static_cast<long>(digit[i]);
    radix *= static_cast<long>(moduli_[i]);
  }
  return x;
}

void Crt::double_double(const int32_t* r, double& hi, double& lo) const {
  double acc = 0, acc_lo = 0;
  for (size_t i = 0; i < moduli_.size(); ++i) {
    acc = std::fma(w_hi_[i], r[i], acc);
    acc_lo = std::fma(w_lo_[i], r[i], acc_lo);
  }
  const double quot = std::rint((acc + acc_lo) * inv_p_);
  const double top = std::fma(-p_hi_, quot, acc);
  const double rest = std::fma(-p_lo_, quot, acc_lo);
  hi = top + rest;
  lo = rest - (hi - top);
}

}  // namespace ozref::schemes
