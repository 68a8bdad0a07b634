// The slicing arithmetic of the Ozaki-I twins, host and device (the CPU tests hold it against
// reference/schemes/ozaki1/slicing.hpp's Slicing where no GPU is, tests/device/t-twin-slicing.cpp):
// the row and column shifts, and the p slices of a scaled element, from the double's bits in
// integers (the CPU's ozIMMU slicing runs in 80-bit long double, which a GPU has not), and the
// greedy base-13 digits of ozaki1-fp4 by the CPU's own definition (greedy_digits.hpp).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "schemes/common/greedy_digits.hpp"
#include "stages/ozaki2/arith.cuh"

namespace ozref::device::ozaki1 {

// Which slicing: ozIMMU's signed w-bit slices, cuBLAS's signed leading slice and unsigned bytes,
// or the greedy base-13 digits of ozaki1-fp4.
enum class Slicing { Ozimmu, Cublas, Fp4 };

// The shift of a row (column) whose largest magnitude is max_abs, so that |x| < 2^bits (the CPU
// Slicing's magnitude_bits()); 0 for a zero row.
OZREF_HD inline int slice_shift(int bits, double max_abs) { return max_abs == 0 ? 0 : bits - 1 - ilogb(max_abs); }

// floor(a 2^e) (floor: true) or trunc(|a| 2^e) with its sign apart (floor: false), exactly, from
// the double's bits; |a 2^e| < 2^100.
OZREF_HD inline __int128 scaled_integer(double a, int e, bool floor) {
  const uint64_t bits = static_cast<uint64_t>(ozaki2::double_to_bits(a));
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  const __int128 sig = static_cast<__int128>((bits & ((uint64_t{1} << 52) - 1)) | (field ? uint64_t{1} << 52 : 0));
  const int shift = (field ? field : 1) - 1075 + e;
  const bool negative = bits >> 63;
  if (!floor || !negative) {  // the magnitude, truncated
    if (shift >= 0) return sig << shift;
    return shift > -120 ? sig >> -shift : 0;
  }
  const __int128 s = -sig;  // arithmetic shift of a negative value: the floor (-0 stays 0)
  if (shift >= 0) return s * (static_cast<__int128>(1) << shift);
  return shift > -120 ? s >> -shift : (sig != 0 ? -1 : 0);
}

// The p slices of a (scaled by 2^s), most significant first, at out[0], out[stride], ...; w: the
// ozimmu slice width.
//   ozimmu: X = trunc(|a| 2^(s + (p-1) w)); slice t = +-((X >> (p-1-t) w) mod 2^w), signed like a.
//   cublas: X = floor(a 2^(s + 8(p-1))); slice 0 = X >> 8(p-1) (signed), slice t the next bytes.
//   fp4:    X = round(a 2^s) to nearest even (|X| <= X_p < 2^58); slice t its greedy digit of
//           weight 13^(p-1-t).
OZREF_HD inline void slice_element(Slicing v, int p, int w, double a, int s, int8_t* out, size_t stride) {
  if (v == Slicing::Fp4) {
    int8_t digits[16];
    schemes::to_base13(static_cast<int64_t>(rint(ldexp(a, s))), p, digits);
    for (int t = 0; t < p; ++t) out[t * stride] = digits[p - 1 - t];
    return;
  }
  if (v == Slicing::Cublas) {
    const __int128 X = scaled_integer(a, s + 8 * (p - 1), true);
    out[0] = static_cast<int8_t>(X >> (8 * (p - 1)));
    for (int t = 1; t < p; ++t) out[t * stride] = static_cast<int8_t>(static_cast<uint8_t>(X >> (8 * (p - 1 - t))));
    return;
  }
  const __int128 X = scaled_integer(a, s + (p - 1) * w, false);
  const bool negative = ozaki2::double_to_bits(a) < 0;
  for (int t = 0; t < p; ++t) {
    const int digit = static_cast<int>((X >> ((p - 1 - t) * w)) & ((1 << w) - 1));
    out[t * stride] = static_cast<int8_t>(negative ? -digit : digit);
  }
}

}  // namespace ozref::device::ozaki1
