// The limb arithmetic of the FP8 Ozaki-II twins (split, the FP8 GEMM operands, recombine), as
// reference/schemes/ozaki2/modular_product.cpp and LowpGemm::integer_output define it. Host and
// device functions: tests/device/t-twin-limbs.cpp holds them against the CPU stages' functions
// over every residue of every modulus and every FP32 pattern class where no GPU is present.
#pragma once
#include <cstdint>

#include "stages/ozaki2/arith.cuh"

namespace ozref::device::ozaki2 {

constexpr int kMaxTerms = 4;     // GEMMs per modulus (fp8: 3)
constexpr int kMaxLimbs = 4;     // limbs per residue (fp8: 2 or 3)

// A modulus's product as the twins need it: a square modulus root^2 (split r = root x + y) or,
// with root 0, a Karatsuba modulus (r = 16 h + l, z = h + l); its GEMMs' weights.
struct LimbProduct {
  int64_t modulus = 0;
  int32_t root = 0;
  int terms = 0;
  int64_t weight[kMaxTerms] = {};
};

// The limbs of a balanced residue r: square x = rint(r / root) (ties to even), y = r - root x;
// Karatsuba h = sign(r) ceil(|r| / 16), l = r - 16 h, z = h + l.
OZREF_HD inline int split_limbs(const LimbProduct& p, int32_t r, int8_t* limbs) {
  if (p.root != 0) {
    const int64_t x = static_cast<int64_t>(rint(double(r) / double(p.root)));
    limbs[0] = static_cast<int8_t>(x);
    limbs[1] = static_cast<int8_t>(r - p.root * x);
    return 2;
  }
  const int32_t h = r >= 0 ? (r + 15) / 16 : -((-r + 15) / 16);
  limbs[0] = static_cast<int8_t>(h);
  limbs[1] = static_cast<int8_t>(r - 16 * h);
  limbs[2] = static_cast<int8_t>(limbs[0] + limbs[1]);
  return 3;
}

// The E4M3 encoding of an integer of magnitude at most 16 (every one is exact in E4M3).
OZREF_HD inline uint8_t e4m3_of_small_integer(int8_t v) {
  const uint8_t sign = v < 0 ? 0x80 : 0;
  uint32_t mag = static_cast<uint32_t>(v < 0 ? -v : v);
  if (mag == 0) return sign;
  int e = 0;  // mag = 1.f x 2^e, e in 0..4
  while ((mag >> (e + 1)) != 0) ++e;
  const uint32_t fraction = ((mag << 3) >> e) & 7;  // three fraction bits, exact for mag <= 16
  return static_cast<uint8_t>(sign | ((e + 7) << 3) | fraction);
}

constexpr int64_t kNotAnInteger = INT64_MIN;  // LowpGemm's kNotInteger

// An FP32 GEMM output as an integer: kNotAnInteger when it is not finite, not an integer, or
// 2^54 or larger (beyond any exact FP32 sum), as LowpGemm::integer_output.
OZREF_HD inline int64_t fp32_integer_output(uint32_t bits) {
  const uint32_t biased = (bits >> 23) & 0xff, fraction = bits & 0x7fffff;
  if (biased == 0xff) return kNotAnInteger;
  if (biased == 0) return fraction == 0 ? 0 : kNotAnInteger;  // a subnormal is below 1
  const uint64_t significand = fraction | 0x800000u;
  const int e = int(biased) - 150;
  uint64_t mag;
  if (e < 0) {
    if (e <= -64 || (significand & ((uint64_t{1} << -e) - 1)) != 0) return kNotAnInteger;
    mag = significand >> -e;
  } else {
    if (e > 30) return kNotAnInteger;
    mag = significand << e;
  }
  return (bits >> 31) ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
}

// The balanced residue of the product from its GEMMs' FP32 outputs: sum weight (output mod m).
OZREF_HD inline int32_t recombine_outputs(const LimbProduct& p, const uint32_t* outputs) {
  int64_t sum = 0;
  for (int g = 0; g < p.terms; ++g) sum += p.weight[g] * (fp32_integer_output(outputs[g]) % p.modulus);
  return static_cast<int32_t>(balanced_residue(sum, p.modulus));
}

}  // namespace ozref::device::ozaki2
