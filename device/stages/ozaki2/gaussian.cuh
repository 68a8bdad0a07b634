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

// One modulus's row of constants g (gaussian_table's c[t]), by place: the complex stage's iota,
// iota / 2, (m + 1) / 2 and floor(2^32 / m); the residues' plane formation from limbs
// (gaussian_planes): 2^16, 2^32, iota, iota 2^16 and iota 2^32 mod m (balanced) and the
// offset reduction's offset, mu_up (its bits) and floor(m / 2).
enum GaussianConstant : int { kIota, kIotaHalf, kHalf, kBarrett, kTwo16, kTwo32, kIotaBalanced, kIotaTwo16, kIotaTwo32, kOffset, kMuUp, kFloorHalf, kConstantPlaces };
static_assert(kConstantPlaces == kGaussianConstants, "twins.hpp's row length");

OZREF_HD_INLINE int32_t gaussian_real(int32_t z, int32_t w, int32_t m, const int32_t* g) { return barrett_residue32((z + w) * g[kHalf], m, g[kBarrett]); }
OZREF_HD_INLINE int32_t gaussian_imag(int32_t z, int32_t w, int32_t m, const int32_t* g) { return barrett_residue32((w - z) * g[kIotaHalf], m, g[kBarrett]); }

// The planes re + iota im and re - iota im modulo m of integers |re|, |im| < 2^51, from their
// limbs: a = re and b = iota im as sums of limbs times balanced constants (|a|, |b| < 2^26.6, so
// |a +- b| < 2^28: residue_of_offset's domain), then one reduction each.
OZREF_HD_INLINE void gaussian_planes(const IntegerLimbs& re, const IntegerLimbs& im, int32_t m, const int32_t* g, int32_t& plus, int32_t& minus) {
  const int32_t a = re.low + re.mid * g[kTwo16] + re.high * g[kTwo32];
  const int32_t b = im.low * g[kIotaBalanced] + im.mid * g[kIotaTwo16] + im.high * g[kIotaTwo32];
  const uint32_t mu_up = static_cast<uint32_t>(g[kMuUp]);
  plus = residue_of_offset(a + b + g[kOffset], m, mu_up, g[kFloorHalf]);
  minus = residue_of_offset(a - b + g[kOffset], m, mu_up, g[kFloorHalf]);
}

// Every modulus's constants by value, for a kernel's parameters; c is also the layout of
// gaussian_constants_on_device (kGaussianConstants int32 per modulus, modulus after modulus).
struct GaussianTable {
  int32_t m[kMaxGaussianModuli];
  int32_t c[kMaxGaussianModuli][kGaussianConstants];
};

// The table of the moduli (host code; each must be a Gaussian modulus of at most 256: std::invalid_argument otherwise).
inline GaussianTable gaussian_table(const std::vector<int64_t>& moduli) {
  if (moduli.size() > kMaxGaussianModuli) throw std::invalid_argument("gaussian twin: more than " + std::to_string(kMaxGaussianModuli) + " moduli");
  GaussianTable g{};
  for (size_t t = 0; t < moduli.size(); ++t) {
    const int64_t m = moduli[t];
    if (m < 3 || m > 256) throw std::invalid_argument("gaussian twin: modulus " + std::to_string(m) + " is outside [3, 256]");
    const schemes::GaussianModulus gm(m);
    const OffsetReduction reduction = offset_reduction(m);
    const int64_t two16 = balanced_residue(int64_t{1} << 16, m), two32 = balanced_residue(int64_t{1} << 32, m);
    const int64_t constants[kGaussianConstants] = {gm.iota,
                                                   gm.iota_half,
                                                   gm.half,
                                                   barrett_factor(m),
                                                   two16,
                                                   two32,
                                                   balanced_residue(gm.iota, m),
                                                   balanced_residue(gm.iota * two16, m),
                                                   balanced_residue(gm.iota * two32, m),
                                                   reduction.offset,
                                                   static_cast<int32_t>(reduction.mu_up),
                                                   reduction.half};
    g.m[t] = static_cast<int32_t>(m);
    for (size_t q = 0; q < kGaussianConstants; ++q) g.c[t][q] = static_cast<int32_t>(constants[q]);
  }
  return g;
}

}  // namespace ozref::device::ozaki2
