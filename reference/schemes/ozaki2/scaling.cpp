#include "schemes/ozaki2/scaling.hpp"

#include <algorithm>
#include <cmath>

#include "common/named_choice.hpp"
#include "common/vector_clones.hpp"
#include "schemes/ozaki2/gemmul8_fast.hpp"
#include "schemes/stage_tools.hpp"

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

// The largest operand of the bound GEMM: 2^bits, with |x| 2^u < 2^bits before rounding up.
int bound_bits(LowpFormat f) { return f == LowpFormat::Int8 ? 6 : f == LowpFormat::E4M3 ? 4 : 3; }

// u with max |x| 2^u in [2^(bits-1), 2^bits) for a line's largest magnitude (0 for a zero line).
int bound_exponent(double largest, int bits) { return largest == 0 ? 0 : bits - 1 - std::ilogb(largest); }

// ceil(|x_v| 2^u_v) for `count` elements (u_v = u[v * u_step]; a row of A has one u, a row of B
// one per column). scale_v = 2^u_v when that is a normal double (|x| scale rounds as ldexp then),
// else 0: ldexp.
OZREF_VECTOR_CLONES void scaled_ceilings(const double* x, size_t count, const int* u, const double* scale, size_t u_step,
                                         double* out) {
  for (size_t v = 0; v < count; ++v) {
    const double f = scale[v * u_step];
    out[v] = std::ceil(f != 0 ? std::fabs(x[v]) * f : std::ldexp(std::fabs(x[v]), u[v * u_step]));
  }
}

Scaling accurate(const Matrix<double>& a, const Matrix<double>& b, long double L, const LowpGemm& g, int threads) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
  const int bits = bound_bits(g.format());
  Scaling s;
  s.row_shift.assign(m, 0);
  s.col_shift.assign(n, 0);
  s.extra_gemms = 1;
  s.bound_a.resize(m * k);
  s.bound_b.resize(n * k);  // by columns, the layout of the GEMM's B operand
  // ceil(|x| 2^u) raised to the next integer the format holds (E2M1: 5 -> 6, 7 -> 8); at most 2^bits.
  auto operand = [&](double ceiling) {
    int value = static_cast<int>(ceiling);
    while (!g.representable(value)) ++value;
    return static_cast<int8_t>(value);
  };
  std::vector<int> u(m), v(n);
  std::vector<double> row_scale(m), col_scale(n), col_largest(n, 0);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t i = 0; i < m; ++i) {
    double largest = 0;
    for (size_t kk = 0; kk < k; ++kk) largest = std::max(largest, std::fabs(a(i, kk)));
    u[i] = bound_exponent(largest, bits), row_scale[i] = normal_power_of_two(u[i]);
    thread_local std::vector<double> ceilings;
    ceilings.resize(k);
    scaled_ceilings(&a.data[i * k], k, &u[i], &row_scale[i], 0, ceilings.data());
    for (size_t kk = 0; kk < k; ++kk) s.bound_a[i * k + kk] = operand(ceilings[kk]);
  }
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) col_largest[j] = std::max(col_largest[j], std::fabs(b(kk, j)));
  for (size_t j = 0; j < n; ++j) v[j] = bound_exponent(col_largest[j], bits), col_scale[j] = normal_power_of_two(v[j]);
#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t kk = 0; kk < k; ++kk) {
    thread_local std::vector<double> ceilings;
    ceilings.resize(n);
    scaled_ceilings(&b.data[kk * n], n, v.data(), col_scale.data(), 1, ceilings.data());
    for (size_t j = 0; j < n; ++j) s.bound_b[j * k + kk] = operand(ceilings[j]);
  }
  // C_hi >= sum |a| 2^u |b| 2^v when the GEMM is exact (the scale stage checks that it is).
  s.bound_c.resize(m * n);
  g.run_into(m, n, k, s.bound_a.data(), s.bound_b.data(), true, threads, std::span<uint32_t>(s.bound_c));
  std::vector<double> row_max(m, 0), col_max(n, 0);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double c = g.output_value(s.bound_c[i * n + j]);
      if (!(c <= 0x1p127)) c = 0x1p127;  // NaN or infinity (an accumulator fault the stage reports)
      row_max[i] = std::max(row_max[i], c);
      col_max[j] = std::max(col_max[j], c);
    }
  for (size_t i = 0; i < m; ++i)
    if (row_max[i] > 0) s.row_shift[i] = u[i] + half_shift(L, row_max[i]);
  for (size_t j = 0; j < n; ++j)
    if (col_max[j] > 0) s.col_shift[j] = v[j] + half_shift(L, col_max[j]);
  return s;
}

// GEMMul8's fast mode: its shift formula on each line's max and sum of squares (summed upward,
// as its __Tadd_ru reduction).
Scaling gemmul8(const Matrix<double>& a, const Matrix<double>& b, long double L) {
  // L = log2 P - 2; GEMMul8's table entry is RD(log2(P - 1) / 2 - 0.5) (P - 1 and P agree here).
  const float log2p = gemmul8_log2p(static_cast<double>(L + 2));
  auto line = [&](const double* x, size_t count, size_t stride) {
    double mx = 0, ss = 0;
    for (size_t i = 0; i < count; ++i) {
      mx = std::max(mx, std::fabs(x[i * stride]));
      const double sq = x[i * stride] * x[i * stride], sum = ss + sq;
      ss = (sum - ss < sq || sum - sq < ss) ? std::nextafter(sum, HUGE_VAL) : sum;  // an upper bound, as round-up adds
    }
    return gemmul8_fast_shift(mx, ss, log2p);
  };
  Scaling s;
  for (size_t i = 0; i < a.rows; ++i) s.row_shift.push_back(line(&a.data[i * a.cols], a.cols, 1));
  for (size_t j = 0; j < b.cols; ++j) s.col_shift.push_back(line(&b.data[j], b.rows, b.cols));
  return s;
}

}  // namespace

ScalingMode parse_scaling(const std::string& name) {
  return named_choice<ScalingMode>(name, "--mode",
                                   {{"fast", ScalingMode::Fast}, {"accurate", ScalingMode::Accurate}, {"gemmul8-fast", ScalingMode::Gemmul8Fast}});
}

Scaling choose_scaling(const Matrix<double>& a, const Matrix<double>& b, double log2_bound, ScalingMode mode,
                       const LowpGemm& bound_gemm, int threads) {
  if (mode == ScalingMode::Gemmul8Fast) return gemmul8(a, b, log2_bound);
  return mode == ScalingMode::Fast ? fast(a, b, log2_bound) : accurate(a, b, log2_bound, bound_gemm, threads);
}

}  // namespace ozref::schemes
