// Arithmetic shared by the Ozaki-II twins: powers of two, balanced residues of integers held in
// doubles, fixed-width integers of up to kMaxWords 64-bit words (two's complement, least
// significant word first: the CRT stage's array format), the CRT of one element and the correct
// rounding of a wide integer times a power of two. Host and device functions: the CPU tests check
// them against GMP (tests/device/t-twin-arithmetic.cpp) where no GPU is present.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/host_device.hpp"

namespace ozref::device::ozaki2 {

OZREF_HD inline uint64_t mul_high(uint64_t a, uint64_t b) {
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  return static_cast<uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

OZREF_HD inline int leading_zeros(uint64_t x) {  // x != 0
#ifdef __CUDA_ARCH__
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}

OZREF_HD inline double bits_to_double(int64_t b) {
#ifdef __CUDA_ARCH__
  return __longlong_as_double(b);
#else
  return __builtin_bit_cast(double, b);
#endif
}
OZREF_HD inline int64_t double_to_bits(double x) {
#ifdef __CUDA_ARCH__
  return __double_as_longlong(x);
#else
  return __builtin_bit_cast(int64_t, x);
#endif
}

constexpr int kMaxWords = 5;

// 2^e as a double when normal (then x * 2^e rounds exactly as ldexp(x, e)), else 0.
OZREF_HD inline double normal_power_of_two(int e) {
  return e >= -1022 && e <= 1023 ? bits_to_double(static_cast<int64_t>(e + 1023) << 52) : 0.0;
}

// The next double above a non-negative x (nextafter(x, infinity); libstdc++'s constexpr nextafter
// cannot be called from device code).
OZREF_HD inline double next_up(double x) {
  return x == HUGE_VAL ? x : bits_to_double(double_to_bits(x) + 1);
}

// |re| + |im| rounded up (a complex run), |x| for a real one: what the scaling measures.
OZREF_HD inline double magnitude(const double* x, size_t parts, size_t count, size_t v) {
  double mag = fabs(x[v]);
  if (parts == 2 && x[count + v] != 0) mag = next_up(mag + fabs(x[count + v]));
  return mag;
}

OZREF_HD inline int64_t balance(int64_t r, int64_t m) { return r >= (m + 1) / 2 ? r - m : r; }  // r in [0, m)

OZREF_HD inline int64_t balanced_residue(int64_t x, int64_t m) {
  int64_t r = x % m;
  if (r < 0) r += m;
  return balance(r, m);
}

// The factor of the kernel's Barrett reduction modulo m: floor(2^32 / m) (computed once per modulus:
// a 64-bit division per element costs more than the GEMM's epilogue otherwise).
OZREF_HD inline int64_t barrett_factor(int64_t m) { return static_cast<int64_t>((uint64_t{1} << 32) / static_cast<uint64_t>(m)); }

// The balanced residue of an INT32 GEMM output by the kernel's Barrett reduction: q = (x mu) >> 32
// (floor, as the signed __mulhi of a kernel), one correction from either side.
OZREF_HD inline int64_t barrett_residue(int32_t c, int64_t m, int64_t mu) {
  const int64_t x = c, q = (x * mu) >> 32;
  int64_t r = x - q * m;
  r += r < 0 ? m : 0;
  r -= r >= m ? m : 0;
  return balance(r, m);
}
OZREF_HD inline int64_t barrett_residue(int32_t c, int64_t m) { return barrett_residue(c, m, barrett_factor(m)); }

// The same reduction in 32-bit arithmetic, for 3 <= m < 2^15 (so that mu < 2^31): q = the high
// word of x mu (a kernel's __mulhi), r = x - q m modulo 2^32 (exact: the true r is in [-m, 2m)).
OZREF_HD inline bool barrett32_applies(int64_t m) { return m >= 3 && m < (int64_t{1} << 15); }
OZREF_HD inline int32_t barrett_residue32(int32_t x, int32_t m, int32_t mu) {
#ifdef __CUDA_ARCH__
  const int32_t q = __mulhi(x, mu);
#else
  const int32_t q = static_cast<int32_t>((static_cast<int64_t>(x) * mu) >> 32);
#endif
  int32_t r = static_cast<int32_t>(static_cast<uint32_t>(x) - static_cast<uint32_t>(q) * static_cast<uint32_t>(m));
  r += r < 0 ? m : 0;
  r -= r >= m ? m : 0;
  return r >= (m + 1) / 2 ? r - m : r;
}

// r in [-3m/2, 3m/2] moved into the balanced range [-floor(m/2), ceil(m/2) - 1] (balance's).
OZREF_HD inline int64_t into_balanced_range(int64_t r, int64_t m) {
  r += r < -(m / 2) ? m : 0;
  r -= r > (m + 1) / 2 - 1 ? m : 0;
  return r;
}

// 1.5 2^52: y + it - it rounds y to an integer (ties to even) for |y| < 2^51, and y + it holds a
// small integer y in its low 32 bits, two's complement.
constexpr double kRoundingShift = 0x1.8p52;

// A double holding an integer of magnitude below 2^31, as an integer: the low word of r + 1.5 2^52
// (no conversion instruction, which runs at a quarter of the FP64 rate on the GPU; the host runs
// the same arithmetic, so that the CPU tests hold it).
OZREF_HD inline int64_t small_integer(double r) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(double_to_bits(r + kRoundingShift))));
}

// The balanced residue of an integer held exactly in a double, any magnitude, from inv = 1 / m
// rounded (computed once per modulus: a division per element dominates the stage otherwise).
// Where |x / m| < 2^51: one step x - rint(x inv) m (exact, from a fused multiply-add; |r| < 3m/2).
// Below 2^62: two such steps with rint (the first leaves |r| < 2^10 m, the second |r| <= m / 2).
// Beyond: sig 2^e mod m.
// residue_of_integer's common case, |x / m| < 2^51 (every |x| < 2^51), in full-rate arithmetic:
// no rint, no conversion, 32-bit integers.
OZREF_HD inline int32_t residue_of_small_integer(double x, int32_t m, double inv) {
  const double q = (x * inv + kRoundingShift) - kRoundingShift;  // rint(x inv), ties to even
  int32_t r = static_cast<int32_t>(small_integer(fma(-q, static_cast<double>(m), x)));  // exact: |x - q m| < 3m/2
  r += r < -(m / 2) ? m : 0;
  r -= r > (m + 1) / 2 - 1 ? m : 0;
  return r;
}

OZREF_HD inline int64_t residue_of_integer(double x, int64_t m, double inv) {
  const double md = static_cast<double>(m), estimate = x * inv;
  if (fabs(estimate) < 0x1p51 && m < (int64_t{1} << 30)) return residue_of_small_integer(x, static_cast<int32_t>(m), inv);
  if (fabs(x) < 0x1p62) {
    double r = fma(-rint(estimate), md, x);
    r = fma(-rint(r * inv), md, r);
    return into_balanced_range(static_cast<int64_t>(r), m);
  }
  const uint64_t bits = static_cast<uint64_t>(double_to_bits(x));
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t sig = (bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);  // |x| >= 2^62: normal
  int e = field - 1075;                                                            // >= 10
  uint64_t r = sig % static_cast<uint64_t>(m), base = 2 % static_cast<uint64_t>(m);
  for (; e > 0; e >>= 1) {
    if (e & 1) r = r * base % static_cast<uint64_t>(m);
    base = base * base % static_cast<uint64_t>(m);
  }
  const int64_t signed_r = x < 0 ? (m - static_cast<int64_t>(r)) % m : static_cast<int64_t>(r);
  return balance(signed_r, m);
}
OZREF_HD inline int64_t residue_of_integer(double x, int64_t m) { return residue_of_integer(x, m, 1.0 / static_cast<double>(m)); }

// Wide integers: acc (w words) += x (xw <= w words, non-negative) * factor, modulo 2^(64 w).
OZREF_HD_INLINE void wide_add_product(uint64_t* acc, int w, const uint64_t* x, int xw, int64_t factor) {
  const bool negative = factor < 0;
  const uint64_t f = negative ? static_cast<uint64_t>(-factor) : static_cast<uint64_t>(factor);
  uint64_t carry = 0, borrow = 0;
  for (int i = 0; i < w; ++i) {
    const uint64_t xi = i < xw ? x[i] : 0;
    const uint64_t lo = xi * f, hi = mul_high(xi, f);
    const uint64_t part = lo + carry;
    carry = hi + (part < lo);
    if (!negative) {
      const uint64_t s = acc[i] + part;
      carry += s < part;
      acc[i] = s;
    } else {
      const uint64_t d = acc[i] - part - borrow;
      borrow = (acc[i] < part) || (acc[i] - part < borrow);
      acc[i] = d;
    }
  }
}

OZREF_HD_INLINE bool wide_negative(const uint64_t* x, int w) { return static_cast<int64_t>(x[w - 1]) < 0; }

// x -= y (or += y), modulo 2^(64 w).
OZREF_HD_INLINE void wide_sub(uint64_t* x, const uint64_t* y, int w) {
  uint64_t borrow = 0;
  for (int i = 0; i < w; ++i) {
    const uint64_t d = x[i] - y[i] - borrow;
    borrow = (x[i] < y[i]) || (x[i] - y[i] < borrow);
    x[i] = d;
  }
}
OZREF_HD_INLINE void wide_add(uint64_t* x, const uint64_t* y, int w) {
  uint64_t carry = 0;
  for (int i = 0; i < w; ++i) {
    const uint64_t s = x[i] + y[i];
    const uint64_t t = s + carry;
    carry = (s < x[i]) || (t < s);
    x[i] = t;
  }
}

// Signed comparison x > y of w-word two's complement integers.
OZREF_HD_INLINE bool wide_greater(const uint64_t* x, const uint64_t* y, int w) {
  if (wide_negative(x, w) != wide_negative(y, w)) return !wide_negative(x, w);
  bool greater = false, decided = false;  // from the top word down, without an early exit (registers)
  for (int i = w - 1; i >= 0; --i) {
    greater = decided ? greater : x[i] > y[i];
    decided = decided || x[i] != y[i];
  }
  return greater;
}

// acc (w words) += v 2^shift, modulo 2^(64 w) (the shifted term selected word by word: no array).
OZREF_HD_INLINE void wide_add_shifted(uint64_t* acc, int w, int64_t v, int shift) {
  const bool negative = v < 0;
  const uint64_t mag = negative ? static_cast<uint64_t>(-v) : static_cast<uint64_t>(v);
  const int word = shift / 64, bit = shift % 64;
  const uint64_t lo = mag << bit, hi = bit ? mag >> (64 - bit) : 0;
  uint64_t carry = 0;  // the borrow when subtracting
  for (int i = 0; i < w; ++i) {
    const uint64_t y = i == word ? lo : i == word + 1 ? hi : 0;
    if (!negative) {
      const uint64_t s = acc[i] + y, t = s + carry;
      carry = (s < y) || (t < s);
      acc[i] = t;
    } else {
      const uint64_t d = acc[i] - y - carry;
      carry = (acc[i] < y) || (acc[i] - y < carry);
      acc[i] = d;
    }
  }
}

// f(std::integral_constant<int, words>{}) for 1 <= words <= kMaxWords: kernels over wide integers
// take their word count as a template argument, so that the integers stay in registers.
template <typename F>
inline void with_words(size_t words, F f) {
  switch (words) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    default: throw std::logic_error("wide integers of " + std::to_string(words) + " words: the twins take at most " + std::to_string(kMaxWords));
  }
}

// The 30-bit limbs of a CRT weight of `words` 64-bit words.
OZREF_HD constexpr size_t crt_limbs(size_t words) { return (64 * words + 29) / 30; }

// The CRT of one element: the integer in (floor(P/2) - P, floor(P/2)] ((-P/2, P/2]) with the
// residues r[t * stride], t < N, from the weights w_t = q_t P / p_t (N x words) and P (words):
// S = sum r_t w_t (from the weights' 30-bit limbs: each product r_t limb fits 32 x 32 -> 64 bits,
// and each limb's sum 2^47) modulo 2^(64 (words + 1)), q = rint(estimate / P) from S's FP64
// estimate, then S - q P moved into the range by one step; written as `words` words into out. The
// word count is a template argument so that the wide integers stay in registers (crt_element
// dispatches).
template <int words>
OZREF_HD_INLINE void crt_element_of(const int16_t* r, size_t stride, size_t N, const int32_t* weight_limbs, const double* weights_fp64,
                                    const uint64_t* product, double inv_p, int64_t* out) {
  constexpr int w = words + 1, L = static_cast<int>(crt_limbs(words));  // one word of headroom: |S| < 2^16 P
  uint64_t sum[w] = {}, p[w] = {}, half[w] = {}, low[w] = {};
  int64_t limb_sum[L] = {};
  double estimate = 0;
  for (size_t t = 0; t < N; ++t) {
    const int32_t rt = r[t * stride];
    for (int j = 0; j < L; ++j) limb_sum[j] += static_cast<int64_t>(rt) * weight_limbs[t * L + j];
    estimate += static_cast<double>(rt) * weights_fp64[t];
  }
  for (int j = 0; j < L; ++j) wide_add_shifted(sum, w, limb_sum[j], 30 * j);
  for (int i = 0; i < words; ++i) p[i] = product[i];
  for (int i = 0; i < w; ++i) half[i] = p[i] >> 1 | (i + 1 < w ? p[i + 1] << 63 : 0);  // floor(P / 2)
  wide_add_product(sum, w, p, w, -static_cast<int64_t>(llrint(estimate * inv_p)));
  for (int i = 0; i < w; ++i) low[i] = half[i];
  wide_sub(low, p, w);
  if (wide_greater(sum, half, w)) wide_sub(sum, p, w);
  if (!wide_greater(sum, low, w)) wide_add(sum, p, w);
  for (int i = 0; i < words; ++i) out[i] = static_cast<int64_t>(sum[i]);
}

OZREF_HD inline void crt_element(const int16_t* r, size_t stride, size_t N, const int32_t* weight_limbs, const double* weights_fp64,
                                 const uint64_t* product, double inv_p, int words, int64_t* out) {
  switch (words) {  // 2 <= words <= kMaxWords (the stage refuses more)
    case 2: return crt_element_of<2>(r, stride, N, weight_limbs, weights_fp64, product, inv_p, out);
    case 3: return crt_element_of<3>(r, stride, N, weight_limbs, weights_fp64, product, inv_p, out);
    case 4: return crt_element_of<4>(r, stride, N, weight_limbs, weights_fp64, product, inv_p, out);
    default: return crt_element_of<kMaxWords>(r, stride, N, weight_limbs, weights_fp64, product, inv_p, out);
  }
}

// Word i of mag (w words; 0 beyond), by selection rather than indexing, so that the words stay in
// registers (an index only known at run time sends an array to local memory).
template <int w>
OZREF_HD_INLINE uint64_t word_at(const uint64_t (&mag)[w], int i) {
  uint64_t v = 0;
  for (int j = 0; j < w; ++j) v |= mag[j] & (uint64_t{0} - static_cast<uint64_t>(j == i));
  return v;
}

// 64 bits of mag from bit `at` on, and whether any bit below `at` is set.
template <int w>
OZREF_HD_INLINE uint64_t bits_from(const uint64_t (&mag)[w], int at) {
  const int i = at / 64, b = at % 64;
  return word_at(mag, i) >> b | (b ? word_at(mag, i + 1) << (64 - b) : 0);
}
template <int w>
OZREF_HD_INLINE bool any_bit_below(const uint64_t (&mag)[w], int at) {
  const int i = at / 64, b = at % 64;
  uint64_t below = 0;
  for (int j = 0; j < w; ++j) below |= mag[j] & (j < i ? ~uint64_t{0} : j == i && b ? (uint64_t{1} << b) - 1 : 0);
  return below != 0;
}

// magnitude (non-negative) 2^e rounded to the nearest FP64 (ties to even; overflow to infinity),
// with the sign applied (a nonzero value that rounds to zero keeps its sign; zero is +0).
template <int w>
OZREF_HD_INLINE double round_to_double(const uint64_t (&mag)[w], int e, bool negative) {
  int bits = 0;  // the magnitude's bit length
  for (int j = 0; j < w; ++j) bits = mag[j] ? j * 64 + (64 - leading_zeros(mag[j])) : bits;
  if (bits == 0) return 0.0;
  // Keep 53 bits, or fewer where the result is subnormal (its last bit is worth 2^-1074).
  int drop = bits - 53;
  if (e + drop < -1074) drop = -1074 - e;
  double value;
  if (drop <= 0) {
    value = ldexp(static_cast<double>(mag[0]), e);  // at most 53 bits: exact
  } else {
    uint64_t kept = drop < bits ? bits_from(mag, drop) : 0;  // mag >> drop: at most 53 bits
    const bool half = drop - 1 < bits && (bits_from(mag, drop - 1) & 1);
    if (half && (any_bit_below(mag, drop - 1) || (kept & 1))) ++kept;
    value = ldexp(static_cast<double>(kept), e + drop);  // kept <= 2^53: exact; overflow: infinity
  }
  return negative ? -value : value;
}

// (c (words) + corr 2^corr_exponent, corr_exponent in [0, 64)) 2^e rounded to FP64; the word count
// a template argument, as in crt_element_of.
template <int words>
OZREF_HD_INLINE double unscale_element_of(const int64_t* c, int64_t corr, int corr_exponent, int e) {
  constexpr int w = words + 1;
  uint64_t total[w] = {};
  for (int i = 0; i < words; ++i) total[i] = static_cast<uint64_t>(c[i]);
  total[words] = wide_negative(total, words) ? ~uint64_t{0} : 0;  // sign extension
  if (corr != 0) {
    uint64_t shifted[w] = {};
    const uint64_t mag = corr < 0 ? static_cast<uint64_t>(-corr) : static_cast<uint64_t>(corr);
    shifted[0] = mag << corr_exponent;
    shifted[1] = corr_exponent ? mag >> (64 - corr_exponent) : 0;
    if (corr < 0) wide_sub(total, shifted, w);
    else wide_add(total, shifted, w);
  }
  const bool negative = wide_negative(total, w);
  if (negative) {  // the magnitude: two's complement negation (complement, then + 1 carried up)
    bool carry = true;
    for (int i = 0; i < w; ++i) {
      total[i] = ~total[i] + (carry ? 1 : 0);
      carry = carry && total[i] == 0;
    }
  }
  return round_to_double(total, e, negative);
}

OZREF_HD inline double unscale_element(const int64_t* c, int words, int64_t corr, int corr_exponent, int e) {
  switch (words) {  // 1 <= words <= kMaxWords
    case 1: return unscale_element_of<1>(c, corr, corr_exponent, e);
    case 2: return unscale_element_of<2>(c, corr, corr_exponent, e);
    case 3: return unscale_element_of<3>(c, corr, corr_exponent, e);
    case 4: return unscale_element_of<4>(c, corr, corr_exponent, e);
    default: return unscale_element_of<kMaxWords>(c, corr, corr_exponent, e);
  }
}

}  // namespace ozref::device::ozaki2
