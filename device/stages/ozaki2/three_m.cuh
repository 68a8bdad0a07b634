// The 3M complex product's element functions on the device (schemes/ozaki2/complex_product.hpp):
// Re = T1 - T2 and Im = T3 - T1 - T2 modulo m from the balanced plane products T1 = re re',
// T2 = im im', T3 = (re + im)(re' + im'), shared by the complex twin and the emulated GEMM's fused
// complex + crt + unscale (crt_unscale.cuh). |T1 - T2| <= m and |T3 - T1 - T2| <= 3m/2:
// into_balanced_range's domain. Host and device code (tests/device/t-fused-crt-unscale.cpp).
#pragma once
#include <cstdint>

#include "stages/ozaki2/arith.cuh"

namespace ozref::device::ozaki2 {

OZREF_HD_INLINE int32_t three_m_real(int32_t t1, int32_t t2, int32_t m) { return static_cast<int32_t>(into_balanced_range(t1 - t2, m)); }
OZREF_HD_INLINE int32_t three_m_imag(int32_t t1, int32_t t2, int32_t t3, int32_t m) {
  return static_cast<int32_t>(into_balanced_range(t3 - t1 - t2, m));
}

}  // namespace ozref::device::ozaki2
