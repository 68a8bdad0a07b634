// rare: the Ozaki-II variant of fp64-emu (CharlesCNorton/fp64-emu, fp64_emu_cuda/fp64_emu.cu), the
// pieces in which it differs from GEMMul8's. The pipeline (scheme.cpp) runs them as its stages.
//   scale     per line s = (bits - 1) - ilogb(max|x|) (bits = 53: the largest element in
//             [2^52, 2^53)) and lg = log2 ||x 2^s|| (as FP32); one global gain
//             g = floor((log2 P - 1 - (max lg_A + max lg_B + 0.5)) / 2), at most 53 - bits, and
//             bits + g at least 16; every shift gets g. bits_eff = bits + g.
//   round     A~ = round-to-nearest-even(x 2^s), |A~| <= 2^bits_eff; the correction planes
//             hi7 = rne(|A~| 2^(7 - bits_eff)), q7 = rne(|x| 2^(s + 8)) - |A~| 2^8 (signed like x,
//             clamped to +-127).
//   residues  t = A~ + 2^bits_eff (non-negative, at most 2^54) in three 18-bit limbs a, b, c;
//             v = a (2^36 mod p) + b (2^18 mod p) + c + (p - 2^bits_eff mod p) < 2^28; then a
//             32-bit Barrett step with mu = floor(2^31 / p) and one conditional subtract; balanced.
//   reduce    each INT32 output y: xu = y + bias (bias = p ceil(K (p/2)^2 / p) >= |y|), the same
//             Barrett step with subtracts until r < p; balanced.
//   unscale   C = (C' + (corr1 + corr2) 2^(bits_eff - 15)) 2^-(s_i + t_j), the correction GEMMs
//             corr1 = hi7_A q7_B, corr2 = q7_A hi7_B carrying the first-order rounding error.
#pragma once
#include <cstdint>
#include <vector>

#include "common/matrix.hpp"

namespace ozref::schemes::rare {

inline constexpr int kBits = 53;

struct Scaling {
  std::vector<int> row_shift, col_shift;  // gain included
  int bits_eff = kBits;
  int gain = 0;
};
Scaling choose_scaling(MatrixView<double> a, MatrixView<double> b, double log2_product);

struct Rounded {
  double value = 0;  // A~, an integer held exactly
  int8_t hi7 = 0, q7 = 0;
};
Rounded round_element(double x, int shift, int bits_eff);

// The balanced residue of an integer |t| <= 2^bits_eff (held in a double) through the limbs.
int32_t limb_residue(double t, int bits_eff, int64_t m);
// The Barrett step of limb_residue on v (its domain: 0 <= v < limb_domain(m, bits_eff)).
uint32_t limb_barrett(uint32_t v, int64_t m);
uint32_t limb_domain(int64_t m);

uint32_t reduction_bias(int64_t m, size_t k);
int32_t biased_barrett(int32_t y, int64_t m, uint32_t bias);

// fp64-emu's plan_config: the fewest INT8 moduli with log2 P - 1 >= 2 * 49 + ceil(log2 K) + 1 - 3.4
// (13 up to K = 32, 14 up to K = 8192, 15 beyond, at most 20).
size_t default_moduli(size_t k);

}  // namespace ozref::schemes::rare
