// Power-of-two scaling of A's rows and B's columns for Ozaki-II, so that the scaled, truncated
// integers A' = trunc(A * 2^s), B' = trunc(2^t * B) satisfy sum_k |A'_ik| |B'_kj| <= 2^L with
// L = log2(P) - 2, below P/2 (the CRT range).
//   fast:     Cauchy-Schwarz: 2^s_i ||a_i|| <= 2^(L/2), 2^t_j ||b_j|| <= 2^(L/2).
//   accurate: a bound from an extra INT8 GEMM of |A| and |B| scaled to at most 64, C_hi = |A|'|B|'
//             (through the MMA model), then s_i, t_j from C_hi's row and column maxima.
// Both are invariant under power-of-two scaling of rows and columns (unlike GEMMul8's fast mode).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "mma/instruction.hpp"

namespace ozref::schemes {

enum class ScalingMode { Fast, Accurate };
ScalingMode parse_scaling(const std::string& name);

struct Scaling {
  std::vector<int> row_shift, col_shift;  // s_i, t_j
  size_t extra_gemms = 0;                 // the accurate mode's INT8 GEMM
};

Scaling choose_scaling(const Matrix<double>& a, const Matrix<double>& b, double log2_bound, ScalingMode mode,
                       const mma::InstructionSpec& int8_gemm, int threads);

}  // namespace ozref::schemes
