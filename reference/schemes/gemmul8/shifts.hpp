// GEMMul8 v2.0.14's shift formulas (src/scaling_fast_real.hpp and src/scaling_accu_real.hpp, the
// double-precision INT8 path), in its operation order and roundings (cuda_math.hpp), with
// __log2f through log2_model.hpp. With c = 0x1.000006p-1 (0.5 rounded up past 1/(2(1 - 4u))) and
// log2P the float RD(log2(P - 1)/2 - 0.5) of its table:
//   fast, per line with largest magnitude amax and sum of squares v (line_norms.hpp):
//     e = ilogb(v), f = RU_float(v 2^-e), s = RU(__log2f(f) + e), l = RU(c s)
//     shift = floor(RD(RD(log2P - 1.5) - max(1, l))) - ilogb(float(amax))
//   accurate, per line with bound exponent u = 5 - ilogb(amax) and bound-GEMM maximum M:
//     shift = u + floor(RD(log2P - c __log2f(float(M))))
// Each is stored negated in an int16 (sftA, sftB) and read back negated: a line's shift is
// -int16(-shift), and GEMMul8's integer arithmetic wraps as the GPU's does.
#pragma once
#include <gmpxx.h>

#include <cstdint>

#include "schemes/gemmul8/log2_model.hpp"

namespace ozref::schemes::gemmul8 {

inline constexpr float kHalfUp = 0x1.000006p-1f;

// log2P of GEMMul8's table (src/table.hpp) for 2..20 moduli. Its definition, RD_float(log2(P - 1)/2
// - 0.5), gives each entry but the first (log2p_of); for 2 moduli the table holds 0x1.dfd1ecp+2,
// 47 ulps above the definition's 0x1.dfd18ep+2, and GEMMul8 runs with the table's value.
float table_log2p(size_t moduli);
float log2p_of(const mpz_class& product);

// The two floors, given what __log2f returned.
int32_t fast_floor(float log2_f, int32_t exponent, float log2p);
int32_t accurate_floor(float log2_m, float log2p);

struct LineShift {
  int32_t shift = 0;                 // the shift GEMMul8 applies to the line (the model's)
  int32_t lowest = 0, highest = 0;   // the shifts a log2 anywhere in the approximation's window gives
  bool recorded = false;             // taken from the H200 recording (then lowest = highest = shift)
  // Another log2 inside the window would change the shift, and no recording settles it.
  bool dependent() const { return lowest != highest; }
};

LineShift fast_line_shift(double amax, double sum_of_squares, int moduli, float log2p, const Lg2Recording& rec);
LineShift accurate_line_shift(int32_t u, int32_t bound_max, int moduli, float log2p, const Lg2Recording& rec);

// u = 5 - ilogb(amax) (5 for a zero line, as GEMMul8's Tilogb has ilogb(0) = 0), held in its int16.
int32_t accurate_bound_exponent(double amax);

}  // namespace ozref::schemes::gemmul8
