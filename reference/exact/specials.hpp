// IEEE special values in an exact dot product: NaN in, NaN out; Inf * 0 is NaN; +Inf + -Inf is
// NaN; otherwise an infinite product makes the element that infinity. Finite inputs never give a
// special here (a finite exact sum past the FP64 range becomes +-Inf only when it is rounded).
#pragma once
#include <cstddef>

namespace ozref {

enum class SpecialResult { None, NaN, PlusInfinity, MinusInfinity };

SpecialResult dot_special(const double* a, size_t a_stride, const double* b, size_t b_stride,
                          size_t k);

}  // namespace ozref
