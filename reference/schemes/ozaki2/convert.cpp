// The scale and truncate (rare: round) stages of the Ozaki-II pipeline.
#include <algorithm>
#include <cmath>

#include "common/vector_clones.hpp"

#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// |re| + |im| rounded up (a complex run scales on the magnitudes); |x| for a real run.
Matrix<double> magnitude(const std::vector<const Matrix<double>*>& parts) {
  Matrix<double> out(parts[0]->rows, parts[0]->cols);
  for (size_t x = 0; x < out.size(); ++x) {
    double v = std::fabs(parts[0]->data[x]);
    if (parts.size() == 2 && parts[1]->data[x] != 0) v = std::nextafter(v + std::fabs(parts[1]->data[x]), HUGE_VAL);
    out.data[x] = v;
  }
  return out;
}

// Whether sum_k M_A[i,k] M_B[k,j] < P/2 for the magnitudes of the integers: Cauchy-Schwarz first
// (cheap), then, where that is not enough, the sum itself (80-bit, with a margin for its rounding).
bool within_crt_range(const std::vector<long double>& ma, const std::vector<long double>& mb, size_t k, size_t n, size_t i,
                      size_t j, long double cs_bound, long double half_p) {
  if (cs_bound * (1 + 0x1p-40L) < half_p) return true;
  long double sum = 0;
  for (size_t kk = 0; kk < k; ++kk) sum += ma[i * k + kk] * mb[kk * n + j];
  return sum * (1 + static_cast<long double>(k + 2) * 0x1p-63L) < half_p;
}

// trunc(x * scale) for a row of A (one scale) and for a row of B (a scale per column).
OZREF_VECTOR_CLONES void truncate_scaled(const double* x, size_t count, double scale, double* out) {
  for (size_t v = 0; v < count; ++v) out[v] = std::trunc(x[v] * scale);
}
OZREF_VECTOR_CLONES void truncate_scaled(const double* x, size_t count, const double* scale, double* out) {
  for (size_t v = 0; v < count; ++v) out[v] = std::trunc(x[v] * scale[v]);
}

// A' = trunc(A 2^s_i) by rows, B' = trunc(2^t_j B) by columns, in parallel; ldexp where a shift
// leaves the normal powers of two.
void truncate(const Matrix<double>& a, const std::vector<int>& row_shift, const Matrix<double>& b,
              const std::vector<int>& col_shift, int threads, Matrix<double>& a_out, Matrix<double>& b_out) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
  std::vector<double> col_scale(n);
  bool columns_normal = true;
  for (size_t j = 0; j < n; ++j) columns_normal = columns_normal && (col_scale[j] = normal_power_of_two(col_shift[j])) != 0;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t i = 0; i < m; ++i) {
    if (const double scale = normal_power_of_two(row_shift[i]); scale != 0)
      truncate_scaled(&a.data[i * k], k, scale, &a_out.data[i * k]);
    else
      for (size_t kk = 0; kk < k; ++kk) a_out(i, kk) = std::trunc(std::ldexp(a(i, kk), row_shift[i]));
  }
#pragma omp parallel for schedule(static) num_threads(threads)
  for (size_t kk = 0; kk < k; ++kk) {
    if (columns_normal)
      truncate_scaled(&b.data[kk * n], n, col_scale.data(), &b_out.data[kk * n]);
    else
      for (size_t j = 0; j < n; ++j) b_out(kk, j) = std::trunc(std::ldexp(b(kk, j), col_shift[j]));
  }
}

}  // namespace

Converted convert(Context& c, const std::vector<const Matrix<double>*>& a, const std::vector<const Matrix<double>*>& b) {
  const size_t m = c.m, k = c.k, n = c.n;
  const bool complex = a.size() == 2;
  SchemeResult& r = c.r;
  Converted x;
  {
    StageClock clock(r, "scale", c.cheap);
    if (c.rare) {
      const rare::Scaling rs = rare::choose_scaling(*a[0], *b[0], std::log2(c.crt.product().get_d()));
      x.row_shift = rs.row_shift;
      x.col_shift = rs.col_shift;
      x.bits_eff = rs.bits_eff;
    } else {
      const double log2_bound = std::log2(c.crt.product().get_d()) - 2;  // sum |A'||B'| <= 2^L <= P/4
      Scaling sc = complex ? choose_scaling(magnitude(a), magnitude(b), log2_bound, c.o.mode, c.lowp, c.threads)
                           : choose_scaling(*a[0], *b[0], log2_bound, c.o.mode, c.lowp, c.threads);
      r.low_precision_gemms += sc.extra_gemms;
      // Contract (accurate mode, full): the bound GEMM is exact, so C_hi really bounds |A||B|.
      if (c.full && sc.extra_gemms)
        check_lowp_gemm(c.lowp, m, n, k, sc.bound_a.data(), sc.bound_b.data(), true, sc.bound_c, "bound GEMM |A|'|B|'", clock.report());
      x.row_shift = std::move(sc.row_shift);
      x.col_shift = std::move(sc.col_shift);
    }
    if (c.trace) {
      c.trace->add("scale", "row_shift", stage_array(DType::I4, {m}, x.row_shift));
      c.trace->add("scale", "col_shift", stage_array(DType::I4, {n}, x.col_shift));
      if (c.rare) c.trace->add("scale", "bits_eff", stage_array(DType::I4, {1}, std::vector<int>{x.bits_eff}));
    }
  }
  const char* stage = c.rare ? "round" : "truncate";
  StageClock clock(r, stage, c.cheap);
  x.a.assign(a.size(), Matrix<double>(m, k));
  x.b.assign(b.size(), Matrix<double>(k, n));
  if (c.rare) {
    x.hi_a.resize(m * k), x.q_a.resize(m * k), x.hi_b.resize(k * n), x.q_b.resize(k * n);
    for (size_t i = 0; i < m; ++i)
      for (size_t kk = 0; kk < k; ++kk) {
        const rare::Rounded v = rare::round_element((*a[0])(i, kk), x.row_shift[i], x.bits_eff);
        x.a[0](i, kk) = v.value, x.hi_a[i * k + kk] = v.hi7, x.q_a[i * k + kk] = v.q7;
      }
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) {
        const rare::Rounded v = rare::round_element((*b[0])(kk, j), x.col_shift[j], x.bits_eff);
        x.b[0](kk, j) = v.value, x.hi_b[kk * n + j] = v.hi7, x.q_b[kk * n + j] = v.q7;
      }
  } else {
    for (size_t s = 0; s < a.size(); ++s) truncate(*a[s], x.row_shift, *b[s], x.col_shift, c.threads, x.a[s], x.b[s]);
  }
  if (c.cheap) {
    // Contract: the integer of the scaled input, toward zero or to nearest-even (recomputed in
    // 80-bit arithmetic: x 2^s is exact there); rare also |A~| <= 2^bits_eff and the correction
    // planes hi7 = rne(A~ 2^(7 - bits_eff)), q7 = rne(x 2^(s+8)) - 2^8 A~ (clamped to +-127);
    // and the scheme's condition sum_k |A'||B'| < P/2 (complex: (|A'_re| + |A'_im|)(...)).
    auto check = [&](double v, int shift, double got, const int8_t* hi, const int8_t* q, const std::string& where) {
      const long double scaled = std::ldexp(static_cast<long double>(v), shift);
      const long double want = c.rare ? std::nearbyint(scaled) : std::trunc(scaled);
      if (got != want) clock.report().violate(where + " is not the integer of the scaled input");
      if (!c.rare) return;
      if (std::fabs(want) > std::ldexp(1.0L, x.bits_eff)) clock.report().violate(where + " exceeds 2^bits_eff");
      const long double h = std::clamp(std::nearbyint(std::ldexp(want, 7 - x.bits_eff)), -127.0L, 127.0L);
      const long double e = std::clamp(std::nearbyint(std::ldexp(scaled, 8)) - want * 256, -127.0L, 127.0L);
      if (*hi != h || *q != e) clock.report().violate(where + ": correction planes (" + std::to_string(*hi) + ", " + std::to_string(*q) + ")");
    };
    for (size_t s = 0; s < a.size(); ++s)
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk)
          check((*a[s])(i, kk), x.row_shift[i], x.a[s](i, kk), c.rare ? &x.hi_a[i * k + kk] : nullptr,
                c.rare ? &x.q_a[i * k + kk] : nullptr, "A'" + index3(s, i, kk));
    for (size_t s = 0; s < b.size(); ++s)
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j)
          check((*b[s])(kk, j), x.col_shift[j], x.b[s](kk, j), c.rare ? &x.hi_b[kk * n + j] : nullptr,
                c.rare ? &x.q_b[kk * n + j] : nullptr, "B'" + index3(s, kk, j));
    std::vector<long double> ma(m * k, 0), mb(k * n, 0), ra(m, 0), cb(n, 0);
    for (const Matrix<double>& part : x.a)
      for (size_t v = 0; v < m * k; ++v) ma[v] += std::fabs(static_cast<long double>(part.data[v]));  // exact: < 2^64
    for (const Matrix<double>& part : x.b)
      for (size_t v = 0; v < k * n; ++v) mb[v] += std::fabs(static_cast<long double>(part.data[v]));
    for (size_t i = 0; i < m; ++i)
      for (size_t kk = 0; kk < k; ++kk) ra[i] += ma[i * k + kk] * ma[i * k + kk];
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) cb[j] += mb[kk * n + j] * mb[kk * n + j];
    const long double half_p = static_cast<long double>(c.crt.product().get_d()) / 2 * (1 - 0x1p-50L);
    r.exactness_conditions = true;
    for (size_t i = 0; i < m && r.exactness_conditions; ++i)
      for (size_t j = 0; j < n; ++j)
        if (!within_crt_range(ma, mb, k, n, i, j, std::sqrt(ra[i] * cb[j]), half_p)) {
          r.exactness_conditions = false;
          clock.report().violate("the CRT bound sum |A'||B'| < P/2 fails at C" + index3(0, i, j));
          break;
        }
  }
  if (c.trace) {
    const char* a_names[] = {"a_re", "a_im"};
    const char* b_names[] = {"b_re", "b_im"};
    for (size_t s = 0; s < x.a.size(); ++s) c.trace->add(stage, complex ? a_names[s] : "a", stage_array(DType::F8, {m, k}, x.a[s].data));
    for (size_t s = 0; s < x.b.size(); ++s) c.trace->add(stage, complex ? b_names[s] : "b", stage_array(DType::F8, {k, n}, x.b[s].data));
    if (c.rare) {
      c.trace->add(stage, "a_hi7", stage_array(DType::I1, {m, k}, x.hi_a));
      c.trace->add(stage, "a_q7", stage_array(DType::I1, {m, k}, x.q_a));
      c.trace->add(stage, "b_hi7", stage_array(DType::I1, {k, n}, x.hi_b));
      c.trace->add(stage, "b_q7", stage_array(DType::I1, {k, n}, x.q_b));
    }
  }
  return x;
}

}  // namespace ozref::schemes::ozaki2
