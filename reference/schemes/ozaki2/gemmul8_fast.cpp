#include "schemes/ozaki2/gemmul8_fast.hpp"

#include <cmath>

namespace ozref::schemes {
namespace {

// x rounded to float upward / downward (x exact in a double).
float round_up(double x) {
  float f = static_cast<float>(x);
  return static_cast<double>(f) < x ? std::nextafter(f, HUGE_VALF) : f;
}
float round_down(double x) {
  float f = static_cast<float>(x);
  return static_cast<double>(f) > x ? std::nextafter(f, -HUGE_VALF) : f;
}

}  // namespace

float gemmul8_log2p(double log2_p_minus_1) { return round_down(log2_p_minus_1 / 2 - 0.5); }

int gemmul8_fast_shift(double amax, double sum_of_squares, float log2p) {
  if (amax == 0.0) return 0;
  constexpr float h = 0x1.0000060000000p-1F;  // round_up(0.5 / (1 - 4 * 2^-24))
  const int e = std::ilogb(sum_of_squares);
  const float f = round_up(std::ldexp(sum_of_squares, -e));
  // Each float operation rounded as the kernel's __fmul_ru, __fadd_ru, __fsub_rd (exact in double).
  const float l = round_up(static_cast<double>(round_up(static_cast<double>(h) * std::log2(static_cast<double>(f)))) + e);
  const float x = round_down(static_cast<double>(round_down(static_cast<double>(log2p) - 2.0)) - std::fmax(1.0f, l));
  return static_cast<int>(std::floor(x)) - std::ilogb(amax);
}

}  // namespace ozref::schemes
