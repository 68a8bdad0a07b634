// The moduli lists of the Ozaki-II schemes. Each list is checked by `ozref prove`
// (pairwise coprime, product bits of each prefix; docs/proofs.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ozref::schemes {

// INT8 moduli of GEMMul8 and fp64-emu (used as prefixes, N = 2..20).
const std::vector<int64_t>& int8_moduli();
// FP8 moduli of GEMMul8 since commit 58d57d4: six squares, then fourteen Karatsuba moduli.
const std::vector<int64_t>& fp8_square_moduli();
const std::vector<int64_t>& fp8_karatsuba_moduli();
// The digits of the FP4 base-13 limbs: S = {0, +-1, +-2, +-3, +-4, +-6, +-8, +-12}, each stored
// as the E2M1 value of half the digit.
const std::vector<int64_t>& fp4_digits();
// FP4 Ozaki-II moduli, derived (not copied): every m <= 169 all of whose residue classes have a
// two-limb representative c0 + 13 c1 (c0, c1 in S), taken largest first while pairwise coprime
// with those already taken, until `count` are chosen.
std::vector<int64_t> fp4_two_limb_candidates();
std::vector<int64_t> fp4_moduli(size_t count = 19);

// Gaussian INT8 moduli, derived (not copied): every odd m <= 256 all of whose prime factors are
// 1 mod 4 (exactly those odd m with a square root of -1), taken largest first while pairwise
// coprime (22 of them). Modulo such an m, (re + i im)(re' + i im') splits into two real products.
const std::vector<int64_t>& gaussian_int8_moduli();
// The least iota in 1..m-1 with iota^2 = -1 mod m; std::invalid_argument where there is none.
int64_t sqrt_minus_one(int64_t m);

}  // namespace ozref::schemes
