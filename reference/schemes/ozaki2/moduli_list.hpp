// A kernel's own moduli (--moduli-list, "moduli-list" in a manifest): any pairwise-coprime set the
// INT8 instruction can hold, in place of a prefix of the variant's list; P, the CRT weights and
// the scaling's bound are derived from it as from any list.
#pragma once
#include "schemes/ozaki2/scheme.hpp"

namespace ozref::schemes {

// The most moduli a list may hold (P up to about 2^256: the scaling's long double bound).
inline constexpr size_t kMaxModuliList = 32;

// InputError with the reason unless o.moduli_list is one ozref can verify: ozaki2-int8 (real or
// 3M complex: the Gaussian product has its own moduli), not together with --moduli, 2..32 moduli,
// each in 3..256 (its balanced residues fit INT8, and the Barrett reduction is proved for it),
// pairwise coprime (the message names two that share a factor).
void require_moduli_list(const Ozaki2Options& o);

}  // namespace ozref::schemes
