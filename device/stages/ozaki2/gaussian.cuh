// The Gaussian complex product's element functions on the device (schemes/ozaki2/complex_product.hpp):
// Re = (Z + W) / 2 and Im = (W - Z) iota / 2 modulo m from the plane products Z and W, shared by
// the complex twin and the emulated GEMM's fused complex + crt + unscale. |Z + W| and |W - Z| are
// below m <= 256 and their products with (m + 1) / 2 and iota / 2 below 2^15: barrett_residue32's
// domain.
#pragma once
#include <cstdint>

#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {

// One modulus's entry of gaussian_constants: iota, iota / 2, (m + 1) / 2, floor(2^32 / m).
OZREF_HD_INLINE int32_t gaussian_real(int32_t z, int32_t w, int32_t m, const int32_t* g) { return barrett_residue32((z + w) * g[2], m, g[3]); }
OZREF_HD_INLINE int32_t gaussian_imag(int32_t z, int32_t w, int32_t m, const int32_t* g) { return barrett_residue32((w - z) * g[1], m, g[3]); }

// Every modulus's constants by value, for a kernel's parameters.
struct GaussianTable {
  int32_t m[kMaxGaussianModuli];
  int32_t c[kMaxGaussianModuli][kGaussianConstants];
};

}  // namespace ozref::device::ozaki2
