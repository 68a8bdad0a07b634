#include "schemes/ozaki1/slicing.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "schemes/common/base13.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes {
namespace {
int ceil_log2(size_t k) { return k <= 1 ? 0 : std::bit_width(k - 1); }
}  // namespace

Slicing::Slicing(Ozaki1Variant v, size_t p, size_t padded_k, size_t accumulators_per_shift) : v_(v), p_(p) {
  if (v == Ozaki1Variant::Int8) w_ = std::min(7, (31 - ceil_log2(std::max<size_t>(padded_k * accumulators_per_shift, 1))) / 2);
  if (v == Ozaki1Variant::Int8Cublas) w_ = 8;
  for (size_t d = 0; d < p; ++d) {  // the kept products: t + u <= p - 1
    mpz_class w;
    if (v != Ozaki1Variant::Fp4) {
      w = mpz_class(1) << ((p - 1 - d) * size_t(w_));
      weights_fp64_.push_back(std::ldexp(1.0, -int(d) * w_));
    } else {
      mpz_ui_pow_ui(w.get_mpz_t(), 13, 2 * (p - 1) - d);
      weights_fp64_.push_back(nearest_double(w, 0));
    }
    weights_.push_back(w);
  }
}

int Slicing::magnitude_bits() const {
  if (v_ == Ozaki1Variant::Int8) return w_;
  if (v_ == Ozaki1Variant::Int8Cublas) return 7;
  return std::ilogb(double(base13_range(int(p_))));
}

int Slicing::shift(double max_abs) const { return max_abs == 0 ? 0 : magnitude_bits() - 1 - std::ilogb(max_abs); }

void Slicing::slice(double a, int s, int8_t* out, size_t stride) const {
  if (v_ == Ozaki1Variant::Int8Cublas) {
    // X = floor(a 2^(s + 8(p-1))) in 128-bit integers from the double's bits (|X| < 2^71); a
    // floating-point remainder would need more than 64 bits once floor moves a negative value.
    const uint64_t bits = std::bit_cast<uint64_t>(a);
    const int field = int((bits >> 52) & 0x7FF);
    const __int128 sig = __int128((bits & ((uint64_t{1} << 52) - 1)) | (field ? uint64_t{1} << 52 : 0));
    // A shift beyond the slices' range (a trace's scaling, which check() reports) is capped where
    // X still fits: the slices are then wrong but defined.
    const int e = static_cast<int>(std::clamp<int64_t>(int64_t{field ? field : 1} - 1075 + s + int64_t(8 * (p_ - 1)), -4096, 70));
    const __int128 signed_sig = std::signbit(a) ? -sig : sig;
    const __int128 X = e >= 0 ? signed_sig * (__int128(1) << e) : (e > -120 ? signed_sig >> -e : (signed_sig < 0 ? -1 : 0));
    out[0] = static_cast<int8_t>(X >> (8 * (p_ - 1)));  // arithmetic shift: the floor
    for (size_t t = 1; t < p_; ++t) out[t * stride] = static_cast<int8_t>(static_cast<uint8_t>(X >> (8 * (p_ - 1 - t))));
    return;
  }
  if (v_ == Ozaki1Variant::Int8) {
    long double rest = std::ldexp(static_cast<long double>(a), s);
    for (size_t t = 0; t < p_; ++t) {
      const long double digit = std::trunc(rest);  // NaN after an infinite a 2^s: inf - inf
      out[t * stride] = std::isnan(digit) ? 0 : static_cast<int8_t>(std::clamp(digit, -128.0L, 127.0L));  // out of range: check() reports it
      rest = (rest - digit) * std::ldexp(1.0L, w_);  // exact: 64-bit significand, a has 53 bits
    }
    return;
  }
  int8_t d[16];
  // Clamped where a scaling beyond the digits' range (check() reports it) would overflow int64; a
  // trace's NaN (a stacked input, which check() reports too) as 0.
  const double x = std::nearbyint(std::ldexp(a, s));
  to_base13(std::isnan(x) ? 0 : static_cast<int64_t>(std::clamp(x, -0x1p62, 0x1p62)), int(p_), d);
  for (size_t t = 0; t < p_; ++t) out[t * stride] = d[p_ - 1 - t];
}

std::string Slicing::check(double a, int s, const int8_t* sl, size_t stride) const {
  const long double x = std::ldexp(static_cast<long double>(a), s);
  if (v_ == Ozaki1Variant::Int8Cublas) {
    if (x < -128 || x >= 128) return "a 2^s outside [-128, 128)";
    __int128 sum = sl[0];  // signed leading slice, then unsigned bytes
    for (size_t t = 1; t < p_; ++t) sum = sum * 256 + static_cast<uint8_t>(sl[t * stride]);
    if (static_cast<long double>(sum) != std::floor(std::ldexp(x, int((p_ - 1) * 8)))) return "slices do not add back to floor(x 2^(8(p-1)))";
    return "";
  }
  if (v_ == Ozaki1Variant::Int8) {
    __int128 sum = 0;
    for (size_t t = 0; t < p_; ++t) {
      const int v = sl[t * stride];
      if (std::abs(v) >= (1 << w_) || (v != 0 && (v < 0) != (x < 0)))
        return "slice " + std::to_string(v) + " out of range or of the wrong sign";
      sum = sum * (__int128{1} << w_) + v;
    }
    if (static_cast<long double>(sum) != std::trunc(std::ldexp(x, int((p_ - 1) * size_t(w_))))) return "slices do not add back";
    return "";
  }
  const long double want = std::nearbyint(x);  // 80-bit, ties to even, as the scheme's FP64 RNE
  if (std::fabs(want) > static_cast<long double>(base13_range(int(p_)))) return "round(a 2^s) exceeds X_p";
  int64_t sum = 0;
  for (size_t t = 0; t < p_; ++t) {
    if (!in_digit_set(sl[t * stride]) || std::abs(sl[t * stride]) > 8)  // greedy digits: at most 8 (the K bound needs it)
      return "digit " + std::to_string(sl[t * stride]) + " is not a greedy digit of S";
    sum = sum * 13 + sl[t * stride];
  }
  return static_cast<long double>(sum) == want ? "" : "digits do not add back to round(a 2^s)";
}

}  // namespace ozref::schemes
