// Arithmetic shared by the Ozaki-II twins: powers of two, balanced residues of integers held in
// doubles, fixed-width integers of up to kMaxWords 64-bit words (two's complement, least
// significant word first: the CRT stage's array format) and the correct rounding of a wide integer
// times a power of two (the CRT itself: crt_element.cuh). Host and device functions: the CPU tests check
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

// x / d for kernel indices: a 32-bit division where both fit (a 64-bit one is a long subroutine on the GPU).
OZREF_HD_INLINE size_t index_quotient(size_t x, size_t d) {
  return (x | d) >> 32 ? x / d : static_cast<uint32_t>(x) / static_cast<uint32_t>(d);
}

// x 2^e as ldexp rounds it, by one multiplication where 2^e is normal (ldexp is a library call).
OZREF_HD_INLINE double times_power_of_two(double x, int e) {
  const double p = normal_power_of_two(e);
  return p != 0 ? x * p : ldexp(x, e);
}

// truncate's element: trunc(x 2^shift) (x 2^shift rounded as ldexp does, then truncated).
OZREF_HD_INLINE double scaled_integer(double x, int shift) { return trunc(times_power_of_two(x, shift)); }

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

// An integer of magnitude below 2^51 held in a double, as an int64 (the same trick, all 52 bits),
// and a small integer as a double (the inverse: no conversion instruction either way).
OZREF_HD_INLINE int64_t exact_integer(double x) { return double_to_bits(x + kRoundingShift) - double_to_bits(kRoundingShift); }
OZREF_HD_INLINE double small_integer_as_double(int32_t x) { return bits_to_double(double_to_bits(kRoundingShift) + x) - kRoundingShift; }

// The low 32 bits of an integer |x| < 2^51 held in a double (once per element; the residues of all
// moduli then come from it).
OZREF_HD_INLINE uint32_t low_word(double x) { return static_cast<uint32_t>(exact_integer(x)); }

// residue_of_integer's common case, |x| < 2^51 and 2 <= m < 2^30, in one FP64 operation: q =
// rint(x inv) by one fma into 1.5 2^52, whose low word is q mod 2^32 (|x inv - x / m| <= 1/8, so
// |x - q m| <= 5m/8); r = x - q m in wrapping 32-bit arithmetic from x's low word, exact as |r| < m.
// The balanced range of m, [-floor(m/2), ceil(m/2) - 1] (balance's), for a kernel to work out once
// per modulus rather than per element.
struct BalancedRange {
  int32_t low, high;
};
OZREF_HD_INLINE BalancedRange balanced_range(int32_t m) { return {-(m / 2), (m + 1) / 2 - 1}; }

// r moved into the balanced range from within one m of it.
OZREF_HD_INLINE int32_t into_range(int32_t r, int32_t m, BalancedRange range) {
  r += r < range.low ? m : 0;
  r -= r > range.high ? m : 0;
  return r;
}

OZREF_HD_INLINE int32_t residue_of_small_integer(double x, uint32_t x_low, int32_t m, double inv, BalancedRange range) {
  const uint32_t q_low = static_cast<uint32_t>(static_cast<uint64_t>(double_to_bits(fma(x, inv, kRoundingShift))));
  return into_range(static_cast<int32_t>(x_low - q_low * static_cast<uint32_t>(m)), m, range);
}
OZREF_HD_INLINE int32_t residue_of_small_integer(double x, uint32_t x_low, int32_t m, double inv) {
  return residue_of_small_integer(x, x_low, m, inv, balanced_range(m));
}
OZREF_HD_INLINE int32_t residue_of_small_integer(double x, int32_t m, double inv) { return residue_of_small_integer(x, low_word(x), m, inv); }

// An integer |x| < 2^51 held in a double as x = high 2^32 + mid 2^16 + low, mid and low in
// [0, 2^16), |high| <= 2^19: limbs whose products with constants below 2^8 fit 32-bit arithmetic,
// so that a linear form of integers modulo m <= 256 costs integer multiply-adds and one reduction.
struct IntegerLimbs {
  int32_t high, mid, low;
};
OZREF_HD_INLINE IntegerLimbs integer_limbs(double x) {
  const int64_t v = exact_integer(x);
  const uint32_t low_word = static_cast<uint32_t>(v);
  return {static_cast<int32_t>(v >> 32), static_cast<int32_t>(low_word >> 16), static_cast<int32_t>(low_word & 0xFFFFu)};
}

// The offset reduction's constants for 2 <= m <= 256 (host code builds them once per modulus):
// u = v + offset is in [0, 2^29) for |v| < 2^28 and congruent to v + floor(m / 2), and
// mu_up = floor(2^32 / m) + 1 makes q = floor(u mu_up / 2^32) floor(u / m) or one more
// (u (mu_up - 2^32 / m) / 2^32 < 1/8).
struct OffsetReduction {
  int32_t offset;
  uint32_t mu_up;
  int32_t half;
};
inline OffsetReduction offset_reduction(int64_t m) {
  const int64_t half = m / 2, multiples = ((int64_t{1} << 28) + m - 1) / m;
  return {static_cast<int32_t>(half + multiples * m), static_cast<uint32_t>((uint64_t{1} << 32) / static_cast<uint64_t>(m) + 1),
          static_cast<int32_t>(half)};
}

// The balanced residue modulo m of v from u = v + offset (offset_reduction's domain): u - q m is
// in [-m, m), one correction makes it u mod m, and (u mod m) - floor(m/2) is v's balanced residue.
OZREF_HD_INLINE int32_t residue_of_offset(int32_t u, int32_t m, uint32_t mu_up, int32_t half) {
#ifdef __CUDA_ARCH__
  const int32_t q = static_cast<int32_t>(__umulhi(static_cast<uint32_t>(u), mu_up));
#else
  const int32_t q = static_cast<int32_t>((static_cast<uint64_t>(static_cast<uint32_t>(u)) * mu_up) >> 32);
#endif
  int32_t r = u - q * m;
  r += r < 0 ? m : 0;
  return r - half;
}

// The balanced residue of an integer held exactly in a double, any magnitude, from inv = 1 / m
// rounded (computed once per modulus: a division per element dominates the stage otherwise).
// Where |x| < 2^51: residue_of_small_integer. Below 2^62: two steps x - rint(x inv) m with rint
// (the first leaves |r| < 2^10 m, the second |r| <= m / 2). Beyond: sig 2^e mod m.
OZREF_HD inline int64_t residue_of_integer(double x, int64_t m, double inv) {
  const double md = static_cast<double>(m), estimate = x * inv;
  if (fabs(x) < 0x1p51 && m < (int64_t{1} << 30)) return residue_of_small_integer(x, static_cast<int32_t>(m), inv);
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
    value = times_power_of_two(static_cast<double>(mag[0]), e);  // at most 53 bits: exact
  } else {
    uint64_t kept = drop < bits ? bits_from(mag, drop) : 0;  // mag >> drop: at most 53 bits
    const bool half = drop - 1 < bits && (bits_from(mag, drop - 1) & 1);
    if (half && (any_bit_below(mag, drop - 1) || (kept & 1))) ++kept;
    value = times_power_of_two(static_cast<double>(kept), e + drop);  // kept <= 2^53: exact; overflow: infinity
  }
  return negative ? -value : value;
}

// (c (words) + corr 2^corr_exponent, corr_exponent in [0, 64)) 2^e rounded to FP64; the word count
// a template argument, so that the wide integers stay in registers.
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
