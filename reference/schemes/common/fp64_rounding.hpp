// Exact integers times powers of two rounded to FP64, as the unscale stages round C' 2^e, and the
// oracle's check of such a rounding.
#pragma once
#include <gmpxx.h>

#include <algorithm>
#include <bit>
#include <cstdint>

namespace ozref::schemes {

// 2^e as a double when it is a normal number (e in [-1022, 1023]: then x * 2^e rounds exactly as
// ldexp(x, e) does), else 0.
inline double normal_power_of_two(int e) {
  return e >= -1022 && e <= 1023 ? std::bit_cast<double>(static_cast<uint64_t>(e + 1023) << 52) : 0.0;
}

// The exponent e of x 2^e where e is a sum of shifts and exponents a trace supplies (any int32
// values; the caller sums them in 64 bits), clamped to +-2^14: for every |x| below 2^15000 that a
// stage scales (doubles, CRT and accumulated integers, rationals of them), x 2^e is zero or infinity
// on both sides of the clamp and rounds alike, and the exact checks' powers of two stay small.
inline constexpr int64_t kExponentClamp = int64_t{1} << 14;
inline int clamped_exponent(int64_t e) { return static_cast<int>(std::clamp(e, -kExponentClamp, kExponentClamp)); }

// c * 2^e rounded to the nearest FP64 (ties to even; overflow to infinity; a nonzero value that
// rounds to zero keeps its sign).
double nearest_double(const mpz_class& c, int e);
double nearest_double(__int128 c, int e);

// True when `got` is the GMP oracle's nearest-even rounding of c * 2^e (the unscale contracts).
bool is_correct_rounding(const mpz_class& c, int e, double got);

}  // namespace ozref::schemes
