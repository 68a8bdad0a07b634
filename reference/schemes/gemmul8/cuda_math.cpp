#include "schemes/gemmul8/cuda_math.hpp"

#include <climits>
#include <cmath>

namespace ozref::schemes::gemmul8 {
namespace {

using quad = __float128;
enum class Toward { Up, Down };

// hi + lo == a + b exactly (Knuth's TwoSum; binary128 does not overflow on binary64 operands).
void two_sum(quad a, quad b, quad& hi, quad& lo) {
  hi = a + b;
  const quad bb = hi - a;
  lo = (a - (hi - bb)) + (b - bb);
}

// The exact value hi + lo (|lo| at most half an ulp of hi in binary128) rounded to T toward
// `dir`: r = RN(hi) is one of the two neighbours of the exact value, and the sign of
// (hi - r) + lo (hi - r is exact) tells which.
template <typename T>
T round_exact(quad hi, quad lo, Toward dir) {
  const T r = static_cast<T>(hi);  // nearest, ties to even
  const quad diff = hi - static_cast<quad>(r);
  const int side = diff > 0 ? 1 : diff < 0 ? -1 : (lo > 0) - (lo < 0);  // sign of exact - r
  if (dir == Toward::Up && side > 0) return std::nextafter(r, static_cast<T>(INFINITY));
  if (dir == Toward::Down && side < 0) return std::nextafter(r, static_cast<T>(-INFINITY));
  return r;
}

bool negative(quad x) { return x < 0 || (x == 0 && std::signbit(static_cast<double>(x))); }  // -0 survives the conversion

// a + b rounded toward `dir`, for finite a and b. An exact zero is -0 rounding down unless both
// operands are +0, and +0 rounding up unless both are -0 (IEEE 754's rule for a sum of zero).
template <typename T>
T sum_toward(quad a, quad b, Toward dir) {
  quad hi, lo;
  two_sum(a, b, hi, lo);
  if (hi == 0 && lo == 0) {
    const bool minus = dir == Toward::Down ? negative(a) || negative(b) || a != 0 : negative(a) && negative(b);
    return minus ? static_cast<T>(-0.0) : static_cast<T>(0.0);
  }
  return round_exact<T>(hi, lo, dir);
}

}  // namespace

double fma_ru(double a, double b, double c) {
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return std::fma(a, b, c);  // infinity or NaN, as IEEE 754 has it
  return sum_toward<double>(static_cast<quad>(a) * static_cast<quad>(b), c, Toward::Up);  // the product is exact in binary128
}

double dadd_ru(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return a + b;
  return sum_toward<double>(a, b, Toward::Up);
}

float double2float_ru(double x) {
  if (!std::isfinite(x)) return static_cast<float>(x);
  return round_exact<float>(x, 0, Toward::Up);
}

float fadd_ru(float a, float b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return a + b;
  return sum_toward<float>(a, b, Toward::Up);
}

float fmul_ru(float a, float b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return a * b;
  return round_exact<float>(static_cast<quad>(a) * static_cast<quad>(b), 0, Toward::Up);
}

float fsub_rd(float a, float b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return a - b;
  return sum_toward<float>(a, -static_cast<quad>(b), Toward::Down);
}

float fmaf_rd(float a, float b, float c) {
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c)) return std::fma(a, b, c);
  return sum_toward<float>(static_cast<quad>(a) * static_cast<quad>(b), c, Toward::Down);
}

int32_t float2int_rd(float x) {
  if (std::isnan(x)) return 0;
  const float f = std::floor(x);
  if (f >= 0x1p31f) return INT32_MAX;
  if (f < -0x1p31f) return INT32_MIN;
  return static_cast<int32_t>(f);
}

int32_t ilogb_or_zero(double x) {
  if (x == 0) return 0;
  if (std::isinf(x)) return INT32_MAX;
  return std::ilogb(x);
}

int32_t ilogbf_or_zero(float x) {
  if (x == 0) return 0;
  if (std::isinf(x)) return INT32_MAX;
  return std::ilogb(x);
}

}  // namespace ozref::schemes::gemmul8
