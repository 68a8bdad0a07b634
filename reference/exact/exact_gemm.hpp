// The fast exact GEMM: the exact value of every element of A*B for FP64 (or FP32, widened
// exactly) inputs, whatever the exponent spread, subnormals included, rounded once.
//
// Method (docs/architecture.md has the derivation): each row of A and column of B is cut into
// beta-bit slices of its integer significands, aligned on the row's (column's) leading bit, with
// beta = floor((53 - ceil(log2 K)) / 2). Every product of two slices and every partial sum of K
// of them is then an integer below 2^53 in magnitude, so each slice-pair product run through
// OpenBLAS DGEMM is exact in any summation order. The slice-pair products are added exactly
// into a wide fixed-point accumulator per element. When the exponent spread would need too many
// slices, a direct path adds every exact 106-bit product into the accumulator instead.
#pragma once
#include <cstdint>
#include <vector>

#include "common/matrix.hpp"

namespace ozref {

struct ExactProduct {
  size_t rows = 0, cols = 0, depth = 0;
  std::vector<double> nearest;    // the exact element rounded to FP64, nearest-even (+-Inf past
                                  // the FP64 range; NaN by the IEEE rules in exact/specials.hpp)
  std::vector<double> residual;   // the exact E - nearest rounded to FP64 (0 if nearest is not finite)
  std::vector<uint8_t> residual_exact;  // 1 when E == nearest + residual exactly
  std::vector<float> nearest_fp32;      // the exact element rounded once to FP32, nearest-even
  int slices_a = 0, slices_b = 0;       // slice counts used (0 when the direct path ran)
  bool direct_path = false;
};

struct ExactGemmOptions {
  int threads = 0;            // 0: OpenMP's default
  bool force_direct = false;  // run the direct path (for testing the two paths against each other)
};

ExactProduct exact_gemm(const Matrix<double>& a, const Matrix<double>& b,
                        const ExactGemmOptions& options = {});

}  // namespace ozref
