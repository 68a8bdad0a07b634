#include "schemes/ozaki2/rare.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "schemes/common/moduli.hpp"

namespace ozref::schemes::rare {
namespace {

// Round-to-nearest-even of mag 2^-s, exact for any shift.
uint64_t rne_shift_right(uint64_t mag, int s) {
  if (s <= 0) return -s < 64 ? mag << -s : 0;
  if (s > 63) return 0;
  const uint64_t keep = mag >> s, rem = mag & ((uint64_t{1} << s) - 1), half = uint64_t{1} << (s - 1);
  return keep + ((rem > half || (rem == half && (keep & 1))) ? 1 : 0);
}

// |x| = mag 2^(t - 52) for the line's shift: t = unbiased exponent + shift (subnormals: exponent 1,
// no hidden bit). A trace's shift may be any int32: t is clamped where every rounding below gives
// zero or drops every bit either way.
void magnitude(double x, int shift, uint64_t& mag, int& t) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const int e = static_cast<int>((bits >> 52) & 0x7FF);
  mag = (bits & ((uint64_t{1} << 52) - 1)) | (e ? uint64_t{1} << 52 : 0);
  t = static_cast<int>(std::clamp<int64_t>(int64_t{e ? e : 1} - 1075 + shift + 52, -4096, 4096));
}

void line(const double* x, size_t count, size_t stride, int& shift, float& lg) {
  double mx = 0, ss = 0;
  for (size_t i = 0; i < count; ++i) {
    mx = std::max(mx, std::fabs(x[i * stride]));
    ss += x[i * stride] * x[i * stride];
  }
  const int e = mx > 0 ? std::ilogb(mx) : 0;
  shift = (kBits - 1) - e;
  lg = ss > 0 ? static_cast<float>(0.5 * std::log2(ss) + shift) : (mx > 0 ? INFINITY : -INFINITY);
}

}  // namespace

Scaling choose_scaling(MatrixView<double> a, MatrixView<double> b, double log2_product) {
  Scaling s;
  s.row_shift.resize(a.rows);
  s.col_shift.resize(b.cols);
  float max_a = -INFINITY, max_b = -INFINITY, lg;
  for (size_t i = 0; i < a.rows; ++i) {
    line(&a.data[i * a.cols], a.cols, 1, s.row_shift[i], lg);
    max_a = std::max(max_a, lg);
  }
  for (size_t j = 0; j < b.cols; ++j) {
    line(b.column(j), b.rows, b.cols, s.col_shift[j], lg);
    max_b = std::max(max_b, lg);
  }
  // As the kernel: in FP32, margin 0.5 for the rounding of the elements and the log2.
  const float need = max_a + max_b + 0.5f;
  int g = std::isfinite(need) ? static_cast<int>(std::floor((static_cast<float>(log2_product) - 1.0f - need) * 0.5f)) : 0;
  g = std::min(g, 53 - kBits);
  s.bits_eff = std::max(kBits + g, 16);  // the correction scale 2^(bits_eff - 15) must stay above 1
  s.gain = s.bits_eff - kBits;
  for (int& v : s.row_shift) v += s.gain;
  for (int& v : s.col_shift) v += s.gain;
  return s;
}

Rounded round_element(double x, int shift, int bits_eff) {
  uint64_t mag;
  int t;
  magnitude(x, shift, mag, t);
  const uint64_t rounded = rne_shift_right(mag, 52 - t);
  const bool neg = std::signbit(x);
  Rounded r;
  r.value = neg ? -static_cast<double>(rounded) : static_cast<double>(rounded);
  const int64_t h = static_cast<int64_t>(rne_shift_right(rounded, bits_eff - 7));
  // Modulo 2^64, then clamped before the sign: a trace's shift can push both terms past int64.
  const auto q = static_cast<int64_t>(rne_shift_right(mag, 44 - t) - (rounded << 8));
  r.hi7 = static_cast<int8_t>(std::clamp<int64_t>(neg ? -h : h, -127, 127));
  r.q7 = static_cast<int8_t>(neg ? -std::clamp<int64_t>(q, -127, 127) : std::clamp<int64_t>(q, -127, 127));
  return r;
}

uint32_t limb_barrett(uint32_t v, int64_t m) {
  const uint32_t p = static_cast<uint32_t>(m), mu = (uint32_t{1} << 31) / p;
  const uint32_t q = static_cast<uint32_t>((uint64_t{v} * mu) >> 31);
  uint32_t r = v - q * p;
  if (r >= p) r -= p;
  return r;
}

uint32_t limb_domain(int64_t m) {
  // a <= 2^18 (t <= 2^54), b, c < 2^18.
  const uint64_t p = uint64_t(m), c36 = (uint64_t{1} << 36) % p, c18 = (uint64_t{1} << 18) % p;
  return static_cast<uint32_t>((uint64_t{1} << 18) * c36 + ((uint64_t{1} << 18) - 1) * (c18 + 1) + p + 1);
}

int32_t limb_residue(double t, int bits_eff, int64_t m) {
  const uint64_t p = uint64_t(m);
  const uint64_t biased = static_cast<uint64_t>(static_cast<int64_t>(t) + (int64_t{1} << bits_eff));
  const uint64_t a = biased >> 36, b = (biased >> 18) & 0x3FFFF, c = biased & 0x3FFFF;
  const uint64_t v = a * ((uint64_t{1} << 36) % p) + b * ((uint64_t{1} << 18) % p) + c + (p - (uint64_t{1} << bits_eff) % p);
  const int32_t r = static_cast<int32_t>(limb_barrett(static_cast<uint32_t>(v), m));
  return r > (m - 1) / 2 ? r - static_cast<int32_t>(m) : r;
}

uint32_t reduction_bias(int64_t m, size_t k) {
  const uint64_t p = uint64_t(m), half = p / 2, max_abs = uint64_t(k) * half * half;
  return static_cast<uint32_t>(p * ((max_abs + p - 1) / p));
}

int32_t biased_barrett(int32_t y, int64_t m, uint32_t bias) {
  const uint32_t p = static_cast<uint32_t>(m), mu = (uint32_t{1} << 31) / p;
  const uint32_t xu = static_cast<uint32_t>(int64_t{y} + int64_t{bias});
  const uint32_t q = static_cast<uint32_t>((uint64_t{xu} * mu) >> 31);
  uint32_t r = xu - q * p;
  while (r >= p) r -= p;
  const int32_t rb = static_cast<int32_t>(r);
  return rb > (static_cast<int32_t>(p) - 1) / 2 ? rb - static_cast<int32_t>(p) : rb;
}

size_t default_moduli(size_t k) {
  const double need = 2 * 49 + std::ceil(std::log2(double(std::max<size_t>(k, 1)))) + 1 - 3.4;
  double bits = 0;
  for (size_t n = 1; n <= int8_moduli().size(); ++n) {
    bits += std::log2(double(int8_moduli()[n - 1]));
    if (bits - 1 >= need) return std::max<size_t>(n, 2);
  }
  return int8_moduli().size();
}

}  // namespace ozref::schemes::rare
