#include "schemes/ozaki2/scaling.hpp"

#include <algorithm>
#include <cmath>

#include "common/named_choice.hpp"
#include "common/vector_clones.hpp"
#include "schemes/ozaki2/gemmul8_fast.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes {
namespace {

// floor((L - log2(x)) / 2) for x > 0, computed so that 2^result * sqrt(x) <= 2^(L/2).
int half_shift(long double log2_bound, long double x) {
  return static_cast<int>(std::floor((log2_bound - std::log2(x)) / 2));
}

// u with max |x| 2^u in [2^(bits-1), 2^bits) for a line's largest magnitude (0 for a zero line).
int bound_exponent(double largest, int bits) { return largest == 0 ? 0 : bits - 1 - std::ilogb(largest); }

// ceil(|x_v| 2^u_v) for `count` elements (u_v = u[v * u_step]; a row of A has one u, a row of B
// one per column). scale_v = 2^u_v when that is a normal double (|x| scale rounds as ldexp then),
// else 0: ldexp. A nonzero |x| 2^u that underflows to zero still has the ceiling 1.
OZREF_VECTOR_CLONES void scaled_ceilings(const double* x, size_t count, const int* u, const double* scale, size_t u_step,
                                         double* out) {
  for (size_t v = 0; v < count; ++v) {
    const double f = scale[v * u_step];
    const double c = std::ceil(f != 0 ? std::fabs(x[v]) * f : std::ldexp(std::fabs(x[v]), u[v * u_step]));
    out[v] = x[v] != 0 && c == 0 ? 1.0 : c;
  }
}

// ceil(|x| 2^u) raised to the next integer the format holds (E2M1: 5 -> 6, 7 -> 8); at most 2^bits.
int8_t bound_operand(const LowpGemm& g, double ceiling) {
  int value = static_cast<int>(ceiling);
  while (!g.representable(value)) ++value;
  return static_cast<int8_t>(value);
}

// fast: the shift of each of `lines` lines of `len` elements (element e of line l at
// x[l * line_stride + e * step]) from its 80-bit sum of squares. The lines go `group` at a time in
// parallel, their sums interleaved, each in the order of its elements (the same sums whatever the
// threads), so that the additions of different lines overlap.
constexpr size_t kMaxGroup = 64;  // line_shifts' largest group
void line_shifts(const double* x, size_t lines, size_t len, size_t line_stride, size_t step, size_t group, long double L,
                 int* shift) {
  const long double inflate = 1 + 0x1p-40L;  // covers the rounding of the 80-bit sums of squares
  group = std::min(group, kMaxGroup);
#pragma omp parallel for schedule(static)
  for (size_t l0 = 0; l0 < lines; l0 += group) {
    const size_t l1 = std::min(lines, l0 + group);
    long double sq[kMaxGroup] = {};
    for (size_t e = 0; e < len; ++e)
      for (size_t l = l0; l < l1; ++l) {
        const long double v = x[l * line_stride + e * step];
        sq[l - l0] += v * v;
      }
    for (size_t l = l0; l < l1; ++l) shift[l] = sq[l - l0] > 0 ? half_shift(L, sq[l - l0] * inflate * inflate) : 0;  // 2^s ||x|| <= 2^(L/2)
  }
}

}  // namespace

ScalingMode parse_scaling(const std::string& name) {
  return named_choice<ScalingMode>(name, "--mode",
                                   {{"fast", ScalingMode::Fast}, {"accurate", ScalingMode::Accurate}, {"gemmul8-fast", ScalingMode::Gemmul8Fast}});
}

std::string to_string(ScalingMode mode) {
  return mode == ScalingMode::Fast ? "fast" : mode == ScalingMode::Accurate ? "accurate" : "gemmul8-fast";
}

void fast_shifts(MatrixView<double> a, MatrixView<double> b, long double L, int* row_shift, int* col_shift) {
  line_shifts(a.data, a.rows, a.cols, a.cols, 1, 4, L, row_shift);      // A's rows
  line_shifts(b.data, b.cols, b.rows, 1, b.cols, 64, L, col_shift);     // B's columns, row by row
}

// GEMMul8's fast mode: its shift formula on each line's max and sum of squares (summed upward,
// as its __Tadd_ru reduction).
void gemmul8_fast_shifts(MatrixView<double> a, MatrixView<double> b, long double L, int* row_shift, int* col_shift) {
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
  for (size_t i = 0; i < a.rows; ++i) row_shift[i] = line(&a.data[i * a.cols], a.cols, 1);
  for (size_t j = 0; j < b.cols; ++j) col_shift[j] = line(b.column(j), b.rows, b.cols);
}

int bound_bits(LowpFormat f) { return f == LowpFormat::Int8 ? 6 : f == LowpFormat::E4M3 ? 4 : 3; }

void bound_operands_of_rows(MatrixView<double> a, const LowpGemm& g, int* u, int8_t* operands) {
  const size_t m = a.rows, k = a.cols;
  const int bits = bound_bits(g.format());
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i) {
    double largest = 0;
    for (size_t kk = 0; kk < k; ++kk) largest = std::max(largest, std::fabs(a(i, kk)));
    u[i] = bound_exponent(largest, bits);
    const double scale = normal_power_of_two(u[i]);
    thread_local std::vector<double> ceilings;
    ceilings.resize(k);
    scaled_ceilings(&a.data[i * k], k, &u[i], &scale, 0, ceilings.data());
    for (size_t kk = 0; kk < k; ++kk) operands[i * k + kk] = bound_operand(g, ceilings[kk]);
  }
}

void bound_operands_of_columns(MatrixView<double> b, const LowpGemm& g, int* v, int8_t* operands) {
  const size_t k = b.rows, n = b.cols;
  const int bits = bound_bits(g.format());
  std::vector<double> largest(n, 0), scale(n);
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) largest[j] = std::max(largest[j], std::fabs(b(kk, j)));
  for (size_t j = 0; j < n; ++j) v[j] = bound_exponent(largest[j], bits), scale[j] = normal_power_of_two(v[j]);
#pragma omp parallel for schedule(static)
  for (size_t kk = 0; kk < k; ++kk) {
    thread_local std::vector<double> ceilings;
    ceilings.resize(n);
    scaled_ceilings(&b.data[kk * n], n, v, scale.data(), 1, ceilings.data());
    for (size_t j = 0; j < n; ++j) operands[j * k + kk] = bound_operand(g, ceilings[j]);
  }
}

void bound_shifts(const uint32_t* c_hi, size_t m, size_t n, const int* u, const int* v, long double L, const LowpGemm& g,
                  int* row_shift, int* col_shift, const BlockFrame& frame) {
  // C_hi >= sum |a| 2^u |b| 2^v when the GEMM is exact (the bound stage checks that it is).
  std::vector<double> row_max(m, 0), col_max(n, 0);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double c = g.output_value(c_hi[i * n + j]);
      if (!(c <= 0x1p127)) c = 0x1p127;  // NaN or infinity (an accumulator fault the bound stage reports)
      row_max[i] = std::max(row_max[i], c);
      col_max[j] = std::max(col_max[j], c);
    }
  if (frame.whole_line_maxima) frame.whole_line_maxima(row_max, col_max);
  // u and v may be a trace's (any int32): the sums saturate where the shifts are meaningless anyway.
  for (size_t i = 0; i < m; ++i) row_shift[i] = row_max[i] > 0 ? clamped_exponent(int64_t{u[i]} + half_shift(L, row_max[i])) : 0;
  for (size_t j = 0; j < n; ++j) col_shift[j] = col_max[j] > 0 ? clamped_exponent(int64_t{v[j]} + half_shift(L, col_max[j])) : 0;
}

}  // namespace ozref::schemes
