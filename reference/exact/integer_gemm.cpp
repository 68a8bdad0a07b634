#include "exact/integer_gemm.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <vector>

namespace ozref {

int64_t IntegerMatrix::at(size_t r, size_t c) const {
  const size_t i = r * row_stride + c * col_stride;
  switch (type) {
    case IntegerType::S8: return static_cast<const int8_t*>(data)[i];
    case IntegerType::U8: return static_cast<const uint8_t*>(data)[i];
    case IntegerType::S16: return static_cast<const int16_t*>(data)[i];
    case IntegerType::F64: return static_cast<int64_t>(static_cast<const double*>(data)[i]);
  }
  return 0;
}

namespace {

// rows x k elements of x as int16, row by row; the largest magnitude in `largest`.
std::vector<int16_t> pack(const IntegerMatrix& x, size_t rows, size_t k, bool transposed, int64_t& largest) {
  std::vector<int16_t> out(rows * k);
  largest = 0;
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < k; ++c) {
      const int64_t v = transposed ? x.at(c, r) : x.at(r, c);
      if (v <= -(1 << 15) || v >= (1 << 15)) throw std::logic_error("exact_integer_gemm: operand beyond 2^15 in magnitude");
      out[r * k + c] = static_cast<int16_t>(v);
      largest = std::max(largest, std::abs(v));
    }
  return out;
}

}  // namespace

void exact_integer_gemm(size_t m, size_t n, size_t k, const IntegerMatrix& a, const IntegerMatrix& b, int64_t* c) {
  int64_t max_a = 0, max_b = 0;
  const std::vector<int16_t> at = pack(a, m, k, false, max_a), bt = pack(b, n, k, true, max_b);
  // int32 partial sums over chunks short enough that they cannot overflow, then int64.
  const int64_t product = std::max<int64_t>(1, max_a * max_b);
  const size_t chunk = std::max<size_t>(1, static_cast<size_t>(((int64_t{1} << 31) - 1) / product));
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      const int16_t* x = at.data() + i * k;  // not &at[...]: with k = 0 the packed operands are empty
      const int16_t* y = bt.data() + j * k;
      int64_t sum = 0;
      for (size_t k0 = 0; k0 < k; k0 += chunk) {
        int32_t partial = 0;
        const size_t k1 = std::min(k, k0 + chunk);
        for (size_t kk = k0; kk < k1; ++kk) partial += int32_t{x[kk]} * y[kk];
        sum += partial;
      }
      c[i * n + j] = sum;
    }
}

}  // namespace ozref
