#include "exact/specials.hpp"

#include <cmath>

namespace ozref {

SpecialResult dot_special(const double* a, size_t a_stride, const double* b, size_t b_stride,
                          size_t k) {
  bool plus = false, minus = false;
  for (size_t i = 0; i < k; ++i) {
    const double x = a[i * a_stride], y = b[i * b_stride];
    if (std::isnan(x) || std::isnan(y)) return SpecialResult::NaN;
    if (std::isinf(x) || std::isinf(y)) {
      if (x == 0 || y == 0) return SpecialResult::NaN;
      (std::signbit(x) != std::signbit(y) ? minus : plus) = true;
    }
  }
  if (plus && minus) return SpecialResult::NaN;
  if (plus) return SpecialResult::PlusInfinity;
  if (minus) return SpecialResult::MinusInfinity;
  return SpecialResult::None;
}

}  // namespace ozref
