// Power-of-two scaling of A's rows and B's columns for Ozaki-II, so that the scaled, truncated
// integers A' = trunc(A * 2^s), B' = trunc(2^t * B) satisfy sum_k |A'_ik| |B'_kj| <= 2^L with
// L = log2(P) - 2, below P/2 (the CRT range). The arithmetic of the bound and scale stages.
//   fast:     Cauchy-Schwarz: 2^s_i ||a_i|| <= 2^(L/2), 2^t_j ||b_j|| <= 2^(L/2).
//   accurate: a bound from one extra low-precision GEMM (the bound stage) of |A| and |B| scaled
//             and rounded up to integers the scheme's format holds (INT8: at most 64; E4M3: 16;
//             E2M1: 8, rounded up into S), C_hi = |A|'|B|' through the MMA model, then s_i, t_j
//             from C_hi's row and column maxima. The GEMM is exact wherever the scheme's own
//             GEMMs are (its operands are no larger); the bound stage checks it.
//   gemmul8-fast: GEMMul8's own fast-mode shift (gemmul8_fast.hpp), to reproduce its behaviour;
//             not scale-invariant, and it can leave the CRT range (the truncate stage says so).
// fast and accurate are invariant under power-of-two scaling of rows and columns. The functions
// take the magnitudes of the inputs (|x|, or |re| + |im| for a complex run).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "schemes/common/lowp_gemm.hpp"

namespace ozref::schemes {

enum class ScalingMode { Fast, Accurate, Gemmul8Fast };
ScalingMode parse_scaling(const std::string& name);
std::string to_string(ScalingMode mode);

// fast and gemmul8-fast: the shifts of A's rows (m) and B's columns (n).
void fast_shifts(MatrixView<double> a, MatrixView<double> b, long double log2_bound, int* row_shift, int* col_shift);
void gemmul8_fast_shifts(MatrixView<double> a, MatrixView<double> b, long double log2_bound, int* row_shift, int* col_shift);

// accurate, the bound GEMM's operands: each line's exponent u with max |x| 2^u in
// [2^(bits-1), 2^bits) (0 for a zero line) and ceil(|x| 2^u) raised to the next integer the
// format holds; A's rows (m x k), B's by columns (n x k, the layout of the GEMM's B operand).
int bound_bits(LowpFormat f);
void bound_operands_of_rows(MatrixView<double> a, const LowpGemm& g, int* exponent, int8_t* operands);
void bound_operands_of_columns(MatrixView<double> b, const LowpGemm& g, int* exponent, int8_t* operands);
// accurate, the shifts from the bound GEMM's raw outputs C_hi (m x n) and the operands' exponents;
// in a distributed run's block, from the maxima of the whole product's rows and columns of C_hi.
void bound_shifts(const uint32_t* c_hi, size_t m, size_t n, const int* row_exponent, const int* col_exponent,
                  long double log2_bound, const LowpGemm& g, int* row_shift, int* col_shift, const BlockFrame& frame);

}  // namespace ozref::schemes
