// How Ozaki scheme I writes a scaled row or column as p slices, most significant first:
//   int8  (ozIMMU) x = a 2^s with |x| < 2^w; slice_t = the next w bits of x, truncated, signed
//         like x: x 2^((p-1)w) truncated = sum_t slice_t 2^((p-1-t)w).
//         w = min(7, floor((31 - ceil(log2 K')) / 2)), K' = K padded to 32 (times p when the slice
//         products of one shift share an INT32 accumulator), so no INT32 sum can overflow.
//   fp4   X = round(a 2^s) with |X| <= X_p = (13^p - 1) / 3; slice_t = its greedy base-13 digit of
//         weight 13^(p-1-t) (digits in S, at most 8; stored as e2m1 halves).
//   int8 cublas  (cuBLAS's fixed-point emulation) x = a 2^s with |x| < 2^7; X = floor(x 2^(8(p-1)))
//         = s_0 2^(8(p-1)) + sum_{t>=1} u_t 2^(8(p-1-t)): a signed leading slice s_0 in [-128, 127]
//         and unsigned 8-bit slices u_t in [0, 255] (held as byte patterns); the GEMMs mix s8 and
//         u8 operands (K u8 u8 products: K <= 33025 keeps INT32 exact).
// A kept product of slices t and u (t + u <= p - 1) carries weight(t + u) in units of
// 2^unit_exponent().
#pragma once
#include <gmpxx.h>

#include <cstdint>
#include <string>

#include "schemes/common/lowp_gemm.hpp"

namespace ozref::schemes {

enum class Ozaki1Variant { Int8, Fp4, Int8Cublas };

class Slicing {
 public:
  Slicing(Ozaki1Variant v, size_t p, size_t padded_k, size_t accumulators_per_shift);
  Ozaki1Variant variant() const { return v_; }
  LowpFormat format() const { return v_ == Ozaki1Variant::Fp4 ? LowpFormat::E2M1 : LowpFormat::Int8; }
  // Whether slice t is a signed operand (cublas: only the leading slice).
  bool slice_signed(size_t t) const { return v_ != Ozaki1Variant::Int8Cublas || t == 0; }
  size_t slices() const { return p_; }
  int width() const { return w_; }  // int8: bits per slice
  // The scaled magnitudes stay below 2^magnitude_bits(): the slice width (int8), 7 (cublas),
  // ilogb(X_p) (fp4, so that |x| <= X_p).
  int magnitude_bits() const;
  // The power-of-two shift of a row (column) whose largest magnitude is max_abs (0: none).
  int shift(double max_abs) const;
  // The p slices of a scaled element, most significant first, at out[0], out[stride], ...
  void slice(double a, int shift, int8_t* out, size_t stride) const;
  // Empty when the slices of a (at this shift) are what slice() promises; else what is wrong.
  std::string check(double a, int shift, const int8_t* slices, size_t stride) const;
  // Weight of a slice product with t + u = d, and the unit: C = sum weight * C_tu * 2^(unit - s - t).
  const mpz_class& weight(size_t d) const { return weights_[d]; }
  int unit_exponent() const { return v_ == Ozaki1Variant::Fp4 ? 0 : -int(p_ - 1) * w_; }
  // weight(d) * 2^unit_exponent() rounded to FP64 (the FP64 accumulation's factor).
  double weight_fp64(size_t d) const { return weights_fp64_[d]; }

 private:
  Ozaki1Variant v_;
  size_t p_;
  int w_ = 0;
  std::vector<mpz_class> weights_;
  std::vector<double> weights_fp64_;
};

}  // namespace ozref::schemes
