// Power-of-two scaling of A's rows and B's columns for Ozaki-II, so that the scaled, truncated
// integers A' = trunc(A * 2^s), B' = trunc(2^t * B) satisfy sum_k |A'_ik| |B'_kj| <= 2^L with
// L = log2(P) - 2, below P/2 (the CRT range).
//   fast:     Cauchy-Schwarz: 2^s_i ||a_i|| <= 2^(L/2), 2^t_j ||b_j|| <= 2^(L/2).
//   accurate: a bound from one extra low-precision GEMM of |A| and |B| scaled and rounded up to
//             integers the scheme's format holds (INT8: at most 64; E4M3: 16; E2M1: 8, rounded up
//             into S), C_hi = |A|'|B|' through the MMA model, then s_i, t_j from C_hi's row and
//             column maxima. The GEMM is exact wherever the scheme's own GEMMs are (its
//             operands are no larger); the scale stage checks it.
//   gemmul8-fast: GEMMul8's own fast-mode shift (gemmul8_fast.hpp), to reproduce its behaviour;
//             not scale-invariant, and it can leave the CRT range (the truncate stage says so).
// fast and accurate are invariant under power-of-two scaling of rows and columns.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "schemes/common/lowp_gemm.hpp"

namespace ozref::schemes {

enum class ScalingMode { Fast, Accurate, Gemmul8Fast };
ScalingMode parse_scaling(const std::string& name);

struct Scaling {
  std::vector<int> row_shift, col_shift;  // s_i, t_j
  size_t extra_gemms = 0;                 // the accurate mode's bound GEMM
  // accurate mode: the bound GEMM's operands (A's m x k, B's by columns, n x k) and raw outputs,
  // for the stage check
  std::vector<int8_t> bound_a, bound_b;
  std::vector<uint32_t> bound_c;
};

Scaling choose_scaling(const Matrix<double>& a, const Matrix<double>& b, double log2_bound, ScalingMode mode,
                       const LowpGemm& bound_gemm, int threads);

}  // namespace ozref::schemes
