// The greedy base-13 digits of the FP4 schemes (base13.hpp says why they suffice), in a header
// that the GPU twins compile too: the CPU stages and their twins split integers by one definition.
#pragma once
#include <cstdint>

#include "common/host_device.hpp"

namespace ozref::schemes {

// The element of S = {0, +-1, +-2, +-3, +-4, +-6, +-8, +-12} of least magnitude congruent to x
// mod 13 (at most 8: class 5 is -8, class 8 is 8).
OZREF_HD inline int64_t greedy_digit(int64_t x) {
  const int64_t r = (x % 13 + 13) % 13;
  if (r <= 4 || r == 6 || r == 8) return r;
  return r == 5 ? -8 : r == 7 ? -6 : r - 13;
}

// Writes the p greedy digits of x, least significant first; false when x needs more than p.
OZREF_HD inline bool to_base13(int64_t x, int p, int8_t* digits) {
  for (int i = 0; i < p; ++i) {
    const int64_t d = greedy_digit(x);
    digits[i] = static_cast<int8_t>(d);
    x = (x - d) / 13;
  }
  return x == 0;
}

}  // namespace ozref::schemes
