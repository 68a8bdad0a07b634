// truncate: the integers A' = trunc(A 2^s_i) by rows and B' = trunc(2^t_j B) by columns, held
// exactly in doubles. Its check carries the scheme's exactness condition, the CRT bound
// sum_k |A'_ik| |B'_kj| < P/2.
#include <cmath>
#include <cstdio>
#include <string>

#include "common/vector_clones.hpp"
#include "schemes/ozaki2/crt_bound.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/fp64_rounding.hpp"
#include "trace/compare.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// trunc(x * scale) for a row of A (one scale) and for a row of B (a scale per column).
OZREF_VECTOR_CLONES void truncate_scaled(const double* x, size_t count, double scale, double* out) {
  for (size_t v = 0; v < count; ++v) out[v] = std::trunc(x[v] * scale);
}
OZREF_VECTOR_CLONES void truncate_scaled(const double* x, size_t count, const double* scale, double* out) {
  for (size_t v = 0; v < count; ++v) out[v] = std::trunc(x[v] * scale[v]);
}

// A' = trunc(A 2^s_i) (m x k) in parallel; ldexp where a shift leaves the normal powers of two.
void truncate_rows(const double* a, size_t m, size_t k, const int* shift, double* out) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i) {
    if (const double scale = normal_power_of_two(shift[i]); scale != 0)
      truncate_scaled(&a[i * k], k, scale, &out[i * k]);
    else
      for (size_t kk = 0; kk < k; ++kk) out[i * k + kk] = std::trunc(std::ldexp(a[i * k + kk], shift[i]));
  }
}

// B' = trunc(2^t_j B) (k x n) in parallel.
void truncate_columns(const double* b, size_t k, size_t n, const int* shift, double* out) {
  std::vector<double> scale(n);
  bool normal = true;
  for (size_t j = 0; j < n; ++j) normal = normal && (scale[j] = normal_power_of_two(shift[j])) != 0;
#pragma omp parallel for schedule(static)
  for (size_t kk = 0; kk < k; ++kk) {
    if (normal)
      truncate_scaled(&b[kk * n], n, scale.data(), &out[kk * n]);
    else
      for (size_t j = 0; j < n; ++j) out[kk * n + j] = std::trunc(std::ldexp(b[kk * n + j], shift[j]));
  }
}

}  // namespace

std::string_view integers_stage(const Setup& s) { return s.rare ? Round::kName : Truncate::kName; }

std::vector<ArrayRef> Truncate::inputs() const {
  return {{kInputStage, "a"}, {kInputStage, "b"}, {Scale::kName, "row_shift"}, {Scale::kName, "col_shift"}};
}

std::vector<ArraySpec> Truncate::outputs() const {
  const Setup& s = *s_;
  return {{"a", DType::F8, {s.parts_axis(), {"m", s.m}, {"k", s.k}}, {}},
          {"b", DType::F8, {s.parts_axis(), {"k", s.k}, {"n", s.n}}, {}}};
}

void Truncate::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const int* row = in.data<int32_t>({Scale::kName, "row_shift"});
  const int* col = in.data<int32_t>({Scale::kName, "col_shift"});
  for (size_t p = 0; p < s.S; ++p) {
    truncate_rows(in.data<double>({kInputStage, "a"}) + p * s.m * s.k, s.m, s.k, row, out.data<double>(ref("a")) + p * s.m * s.k);
    truncate_columns(in.data<double>({kInputStage, "b"}) + p * s.k * s.n, s.k, s.n, col, out.data<double>(ref("b")) + p * s.k * s.n);
  }
}

namespace {

// "truncate.a[i 0, k 1]: found -677, expected 677 = trunc(A[0, 1] 2^s_i) (A[0, 1] = 1.2e-11, s_i = 47)".
std::string truncation_violation(bool a, const std::string& part, size_t wi, size_t wj, double got, long double want, double x, int shift) {
  const std::string index = std::to_string(wi) + ", " + std::to_string(wj);
  char values[160];
  std::snprintf(values, sizeof values, ": found %.17g, expected %.17Lg = ", got, want);
  return std::string("truncate.") + (a ? "a[" : "b[") + part + (a ? "i " : "k ") + std::to_string(wi) + (a ? ", k " : ", j ") + std::to_string(wj) + "]" +
         values + (a ? "trunc(A[" + index + "] 2^s_i)" : "trunc(2^t_j B[" + index + "])") + " (" + (a ? "A[" : "B[") + index + "] = " +
         element_text(DType::F8, reinterpret_cast<const uint8_t*>(&x)) + (a ? ", s_i = " : ", t_j = ") + std::to_string(shift) + ")";
}

}  // namespace

// Contract (cheap): each integer is the scaled input truncated (recomputed in 80-bit arithmetic,
// where x 2^s is exact), and the CRT bound holds. In a distributed run's block the elements are
// named and ordered by their place in the whole A', B' and C (BlockFrame).
void Truncate::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const BlockFrame& f = s.o.block;
  const int* row = in.data<int32_t>({Scale::kName, "row_shift"});
  const int* col = in.data<int32_t>({Scale::kName, "col_shift"});
  auto check = [&](const double* x, const double* got, size_t rows, size_t cols, bool by_row, const int* shift) {
    const size_t whole_rows = by_row ? f.whole_m(rows) : rows, whole_cols = by_row ? cols : f.whole_n(cols);
    parallel_check(s.S * rows * cols, report, [&](size_t v0, size_t v1, StageReport& part) {
      for (size_t v = v0; v < v1; ++v) {
        const size_t p = v / (rows * cols), i = v / cols % rows, j = v % cols;
        const long double want = std::trunc(std::ldexp(static_cast<long double>(x[v]), by_row ? shift[i] : shift[j]));
        if (got[v] == want) continue;
        const size_t wi = by_row ? f.row(i) : i, wj = by_row ? j : f.col(j);
        part.violate(truncation_violation(by_row, s.S == 1 ? "" : p ? "im, " : "re, ", wi, wj, got[v], want, x[v], by_row ? shift[i] : shift[j]),
                     {0, by_row ? 0u : 1u, (uint64_t(p) * whole_rows + wi) * whole_cols + wj});
      }
    });
  };
  if (f.checks_a) check(in.data<double>({kInputStage, "a"}), out.data<double>(ref("a")), s.m, s.k, true, row);
  if (f.checks_b) check(in.data<double>({kInputStage, "b"}), out.data<double>(ref("b")), s.k, s.n, false, col);
  check_crt_bound(s, out.data<double>(ref("a")), out.data<double>(ref("b")), report);
}

}  // namespace ozref::schemes::ozaki2
