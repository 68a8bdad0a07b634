// The limb arithmetic of the FP8 and FP4 Ozaki-II twins (split, the FP8 GEMM operands, recombine),
// as reference/schemes/ozaki2/modular_product.cpp, base13.cpp and LowpGemm::integer_output define it. Host and
// device functions: tests/device/t-twin-limbs.cpp holds them against the CPU stages' functions
// over every residue of every modulus and every FP32 pattern class where no GPU is present.
#pragma once
#include <cstdint>

#include "stages/ozaki2/arith.cuh"

namespace ozref::device::ozaki2 {

constexpr int kMaxTerms = 4;     // GEMMs per modulus (fp8: 3, fp4: 3 or 4)
constexpr int kMaxLimbs = 4;     // limbs per residue (fp8: 2 or 3, fp4: 2)
// fp4's GEMM operands are the limbs halved (E2M1's values): its outputs are the limb products / 4.
constexpr int kE2M1OutputExponent = 2;

// A modulus's product as the twins need it: an fp4 two-limb modulus (table >= 0: its classes'
// limbs start at pair `table` of the twins' two-limb tables), a square fp8 modulus root^2 (split
// r = root x + y) or, with root 0, a Karatsuba fp8 modulus (r = 16 h + l, z = h + l); its GEMMs'
// weights; its GEMM outputs' integers are the FP32 values times 2^output_exponent (fp4: 2, its
// operands being the limbs halved, E2M1's values).
struct LimbProduct {
  int64_t modulus = 0;
  int32_t root = 0;
  int32_t table = -1;
  int32_t output_exponent = 0;
  int terms = 0;
  int64_t weight[kMaxTerms] = {};
};

// The two-limb form (c0, c1) of residue class r mod m, both in S = {0, +-1, +-2, +-3, +-4, +-6,
// +-8, +-12}, c0 + 13 c1 = r (mod m): of all such pairs the one whose value is closest to zero,
// then the smaller |c1|, then the larger c0, the first in S's order on a tie (as base13.cpp's
// TwoLimbTable). False when the class has none (not an OzII-FP4 modulus).
OZREF_HD inline bool two_limbs(int64_t m, int64_t r, int8_t* limbs) {
  const int8_t digits[15] = {0, 1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 8, -8, 12, -12};
  const int64_t want = ((r % m) + m) % m;
  bool found = false;
  int64_t best = 0;
  for (int8_t c1 : digits)
    for (int8_t c0 : digits) {
      const int64_t v = c0 + 13 * int64_t{c1};
      if (((v % m) + m) % m != want) continue;
      const int64_t av = v < 0 ? -v : v, ab = best < 0 ? -best : best;
      const int a1 = c1 < 0 ? -c1 : c1, b1 = limbs[1] < 0 ? -limbs[1] : limbs[1];
      if (found && (av > ab || (av == ab && (a1 > b1 || (a1 == b1 && c0 <= limbs[0]))))) continue;
      found = true, best = v, limbs[0] = c0, limbs[1] = c1;
    }
  return found;
}

// The limbs of a balanced residue r: fp4 the class's pair in the two-limb tables (two_limbs of
// every class, built on the device); square x = rint(r / root) (ties to even), y = r - root x;
// Karatsuba h = sign(r) ceil(|r| / 16), l = r - 16 h, z = h + l.
OZREF_HD inline int split_limbs(const LimbProduct& p, int32_t r, int8_t* limbs, const int8_t* two_limb_tables = nullptr) {
  if (p.table >= 0) {
    const int64_t pair = p.table + ((r % p.modulus) + p.modulus) % p.modulus;
    limbs[0] = two_limb_tables[2 * pair];
    limbs[1] = two_limb_tables[2 * pair + 1];
    return 2;
  }
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

// A limb of S (twice an E2M1 value) as kind::f8f6f4's E2M1 operand: the code of limb / 2 in the
// central 4 bits of an 8-bit container (bits 5:2); 0 is +0.
OZREF_HD inline uint8_t e2m1_container_of_limb(int8_t v) {
  const int twice = v < 0 ? -v : v;  // 2 |value|: 0, 1, 2, 3, 4, 6, 8, 12 are codes 0 .. 7
  const int code = twice <= 4 ? twice : twice == 6 ? 5 : twice == 8 ? 6 : 7;
  return static_cast<uint8_t>(((v < 0 ? 8 : 0) | code) << 2);
}

constexpr int64_t kNotAnInteger = INT64_MIN;  // LowpGemm's kNotInteger

// An FP32 GEMM output times 2^exponent as an integer: kNotAnInteger when it is not finite, not an
// integer, or 2^54 or larger (beyond any exact FP32 sum), as LowpGemm::integer_output.
OZREF_HD inline int64_t fp32_integer_output(uint32_t bits, int exponent = 0) {
  const uint32_t biased = (bits >> 23) & 0xff, fraction = bits & 0x7fffff;
  if (biased == 0xff) return kNotAnInteger;
  if (biased == 0) return fraction == 0 ? 0 : kNotAnInteger;  // a subnormal is below 1
  const uint64_t significand = fraction | 0x800000u;
  const int e = int(biased) - 150 + exponent;
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
  for (int g = 0; g < p.terms; ++g) sum += p.weight[g] * (fp32_integer_output(outputs[g], p.output_exponent) % p.modulus);
  return static_cast<int32_t>(balanced_residue(sum, p.modulus));
}

}  // namespace ozref::device::ozaki2
