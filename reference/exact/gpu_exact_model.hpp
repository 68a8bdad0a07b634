// The GPU's exact product (device/exact/) step for step on the CPU: the same plan, the same tables
// and the same per-element functions (exact/exact_element.hpp), the GPU's kernels replaced by
// loops. The host tests hold it bit for bit against exact_gemm, which tests the GPU's arithmetic
// where no GPU is; device/exact_gpu_tests.sh holds the GPU itself against `ozref exact`.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/matrix.hpp"
#include "exact/exact_element.hpp"
#include "exact/sliced_exact.hpp"

namespace ozref {

// What the GPU needs of the data, found on the host: the slices, the moduli, the lines' lowest bits.
struct GpuExactSetup {
  SlicePlan plan;
  exact_element::CrtTables tables;
  int max_shift = 0;            // the largest shift of an entry over its slice's base
  std::vector<uint8_t> pow2;    // 2^s mod m_t at [t * (max_shift + 1) + s]
  size_t words = 0;             // two's-complement words of each element's exact sum
  std::vector<int> row_low, col_low;  // the lowest set bit of each row of A, column of B
};

// The moduli tables for products below 2^bits: the fewest of int8_moduli() whose product M is at
// least 2^(bits + 1).
exact_element::CrtTables crt_tables(long bits);

GpuExactSetup gpu_exact_setup(const exact_parts::Analysis& an, size_t k);

// The exact product as the GPU computes it: nearest, nearest_fp32, residual and residual_exact,
// specials included.
SlicedProduct gpu_exact_model(const Matrix<double>& a, const Matrix<double>& b);

}  // namespace ozref
