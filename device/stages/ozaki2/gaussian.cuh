// The Gaussian complex product's element functions on the device (schemes/ozaki2/complex_product.hpp):
// Re = (Z + W) / 2 and Im = (W - Z) iota / 2 modulo m from the plane products Z and W, shared by
// the complex twin and the emulated GEMM's fused complex + crt + unscale (crt_unscale.cuh). |Z + W|
// and |W - Z| are below m <= 256 and their products with (m + 1) / 2 and iota / 2 below 2^15:
// barrett_residue32's domain. Host and device code: tests/device/t-fused-crt-unscale.cpp holds
// them to the CPU stages where no GPU is present.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "schemes/ozaki2/complex_product.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {

// One modulus's constants g (gaussian_table's c[t]): iota, iota / 2, (m + 1) / 2, floor(2^32 / m).
OZREF_HD_INLINE int32_t gaussian_real(int32_t z, int32_t w, int32_t m, const int32_t* g) { return barrett_residue32((z + w) * g[2], m, g[3]); }
OZREF_HD_INLINE int32_t gaussian_imag(int32_t z, int32_t w, int32_t m, const int32_t* g) { return barrett_residue32((w - z) * g[1], m, g[3]); }

// Every modulus's constants by value, for a kernel's parameters; c is also the layout of
// gaussian_constants_on_device (kGaussianConstants int32 per modulus, modulus after modulus).
struct GaussianTable {
  int32_t m[kMaxGaussianModuli];
  int32_t c[kMaxGaussianModuli][kGaussianConstants];
};

// The table of the moduli (host code; each must be a Gaussian modulus: std::invalid_argument otherwise).
inline GaussianTable gaussian_table(const std::vector<int64_t>& moduli) {
  if (moduli.size() > kMaxGaussianModuli) throw std::invalid_argument("gaussian twin: more than " + std::to_string(kMaxGaussianModuli) + " moduli");
  GaussianTable g{};
  for (size_t t = 0; t < moduli.size(); ++t) {
    const schemes::GaussianModulus gm(moduli[t]);
    const int64_t constants[kGaussianConstants] = {gm.iota, gm.iota_half, gm.half, barrett_factor(moduli[t])};
    g.m[t] = static_cast<int32_t>(moduli[t]);
    for (size_t q = 0; q < kGaussianConstants; ++q) g.c[t][q] = static_cast<int32_t>(constants[q]);
  }
  return g;
}

}  // namespace ozref::device::ozaki2
