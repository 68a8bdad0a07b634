// significand * 2^exponent in the x87 80-bit format, exactly (its 64-bit significand holds any
// uint64_t). The exact product's residuals are built so, one per element: where the result is
// normal, a multiplication by a power of two built from its bits, several times faster than
// std::ldexp; elsewhere (far outside any residual of an FP64 product) std::ldexp.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ozref {

inline long double scaled_long_double(uint64_t significand, int exponent) {
  static_assert(std::numeric_limits<long double>::digits == 64 && sizeof(long double) == 16, "needs the x87 80-bit format");
  // The result lies in [2^exponent, 2^(exponent + 64)): normal when both ends are.
  if (exponent < -16382 || exponent > 16383 - 64) return std::ldexp(static_cast<long double>(significand), exponent);
  struct X87 {
    uint64_t significand;  // explicit leading bit
    uint16_t sign_exponent;
    uint16_t padding[3];
  };
  const long double power = std::bit_cast<long double>(X87{uint64_t{1} << 63, static_cast<uint16_t>(exponent + 16383), {0, 0, 0}});
  return static_cast<long double>(significand) * power;
}

}  // namespace ozref
