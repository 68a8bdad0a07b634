#include "schemes/ozaki2/scaling.hpp"

#include <cmath>

#include "common/error.hpp"
#include "mma/gemm.hpp"

namespace ozref::schemes {
namespace {

// floor((L - log2(x)) / 2) for x > 0, computed so that 2^result * sqrt(x) <= 2^(L/2).
int half_shift(long double log2_bound, long double x) {
  return static_cast<int>(std::floor((log2_bound - std::log2(x)) / 2));
}

Scaling fast(const Matrix<double>& a, const Matrix<double>& b, long double L) {
  Scaling s;
  s.row_shift.assign(a.rows, 0);
  s.col_shift.assign(b.cols, 0);
  const long double inflate = 1 + 0x1p-40L;  // covers the rounding of the 80-bit sums of squares
  for (size_t i = 0; i < a.rows; ++i) {
    long double sq = 0;
    for (size_t k = 0; k < a.cols; ++k) sq += static_cast<long double>(a(i, k)) * a(i, k);
    if (sq > 0) s.row_shift[i] = half_shift(L, sq * inflate * inflate);  // 2^s ||a|| <= 2^(L/2)
  }
  for (size_t j = 0; j < b.cols; ++j) {
    long double sq = 0;
    for (size_t k = 0; k < b.rows; ++k) sq += static_cast<long double>(b(k, j)) * b(k, j);
    if (sq > 0) s.col_shift[j] = half_shift(L, sq * inflate * inflate);
  }
  return s;
}

Scaling accurate(const Matrix<double>& a, const Matrix<double>& b, long double L, const mma::InstructionSpec& spec,
                 int threads) {
  const size_t m = a.rows, k = a.cols, n = b.cols, kp = (k + 31) / 32 * 32;
  std::vector<int> u(m, 0), v(n, 0);
  std::vector<uint8_t> abs_a(m * kp, 0), abs_b(n * kp, 0);
  for (size_t i = 0; i < m; ++i) {
    double mx = 0;
    for (size_t kk = 0; kk < k; ++kk) mx = std::max(mx, std::fabs(a(i, kk)));
    if (mx == 0) continue;
    u[i] = 5 - std::ilogb(mx);  // |a| 2^u < 64
    for (size_t kk = 0; kk < k; ++kk) abs_a[i * kp + kk] = uint8_t(std::ceil(std::ldexp(std::fabs(a(i, kk)), u[i])));
  }
  for (size_t j = 0; j < n; ++j) {
    double mx = 0;
    for (size_t kk = 0; kk < k; ++kk) mx = std::max(mx, std::fabs(b(kk, j)));
    if (mx == 0) continue;
    v[j] = 5 - std::ilogb(mx);
    for (size_t kk = 0; kk < k; ++kk) abs_b[j * kp + kk] = uint8_t(std::ceil(std::ldexp(std::fabs(b(kk, j)), v[j])));
  }
  // C_hi >= sum |a| 2^u |b| 2^v, exactly (the INT8 GEMM is exact: K * 64^2 < 2^31).
  const std::vector<uint32_t> c_hi = mma::gemm(spec, {m, n, kp, abs_a, abs_b, {}, {}, {}}, {.threads = threads});
  Scaling s;
  s.row_shift.assign(m, 0);
  s.col_shift.assign(n, 0);
  s.extra_gemms = 1;
  for (size_t i = 0; i < m; ++i) {
    uint32_t mx = 0;
    for (size_t j = 0; j < n; ++j) mx = std::max(mx, c_hi[i * n + j]);
    if (mx) s.row_shift[i] = u[i] + half_shift(L, mx);
  }
  for (size_t j = 0; j < n; ++j) {
    uint32_t mx = 0;
    for (size_t i = 0; i < m; ++i) mx = std::max(mx, c_hi[i * n + j]);
    if (mx) s.col_shift[j] = v[j] + half_shift(L, mx);
  }
  return s;
}

}  // namespace

ScalingMode parse_scaling(const std::string& name) {
  if (name == "fast") return ScalingMode::Fast;
  if (name == "accurate") return ScalingMode::Accurate;
  throw InputError("unknown --mode '" + name + "' (known: fast, accurate)");
}

Scaling choose_scaling(const Matrix<double>& a, const Matrix<double>& b, double log2_bound, ScalingMode mode,
                       const mma::InstructionSpec& int8_gemm, int threads) {
  return mode == ScalingMode::Fast ? fast(a, b, log2_bound) : accurate(a, b, log2_bound, int8_gemm, threads);
}

}  // namespace ozref::schemes
