// GEMMul8's fast-mode shift, as written (UCHINO-Yuki/GEMMul8 @79302e3,
// src/oz2/scaling/fast/calc_sft.hpp, the FP64 overload): for a line with largest magnitude amax
// and sum of squares v,
//   e = ilogb(v), f = RU_float(v 2^-e), l = RU(RU(h * log2(f)) + e)   (h = RU(0.5 / (1 - 4u)))
//   x = RD(RD(log2P_N - 2) - max(1, l)),  shift = floor(x) - ilogb(amax)
// with log2P_N = RD_float(log2(P - 1) / 2 - 0.5) (its table). The norm is taken on the raw line,
// so the scale 2^ilogb(amax) is counted twice: a line whose largest element is below 1/2 gets a
// shift too large for the CRT range (docs/third-party.md, "Diagnosis 2").
// ozref evaluates log2 exactly rounded where the kernel uses __log2f (max error 2^-21.41 on
// [1, 2)); a floor can differ only when x lies that close to an integer.
#pragma once
#include <vector>

#include "common/matrix.hpp"

namespace ozref::schemes {

// log2P_N of GEMMul8's table for a moduli product P.
float gemmul8_log2p(double log2_p_minus_1);
// The shift of one line; 0 for an all-zero line.
int gemmul8_fast_shift(double amax, double sum_of_squares, float log2p);

}  // namespace ozref::schemes
