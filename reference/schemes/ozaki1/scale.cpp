// scale: each row's and column's shift for the slicing (slicing.hpp), from its largest magnitude.
// A free choice, checked through the slices' ranges.
#include <algorithm>
#include <cmath>

#include "schemes/ozaki1/stages.hpp"

namespace ozref::schemes::ozaki1 {

std::vector<ArrayRef> Scale::inputs() const { return {{s_->source(), "a"}, {s_->source(), "b"}}; }

std::vector<ArraySpec> Scale::outputs() const {
  return {{"row_shift", DType::I4, {{"m", s_->m}}, {}}, {"col_shift", DType::I4, {{"n", s_->n}}, {}}};
}

void Scale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const double *a = in.data<double>({s.source(), "a"}), *b = in.data<double>({s.source(), "b"});
  int32_t *row = out.data<int32_t>(ref("row_shift")), *col = out.data<int32_t>(ref("col_shift"));
  for (size_t i = 0; i < s.m; ++i) {
    double mx = 0;
    for (size_t kk = 0; kk < s.k; ++kk) mx = std::max(mx, std::fabs(a[i * s.k + kk]));
    row[i] = s.sl.shift(mx);
  }
  std::vector<double> mx(s.n, 0);
  for (size_t kk = 0; kk < s.k; ++kk)
    for (size_t j = 0; j < s.n; ++j) mx[j] = std::max(mx[j], std::fabs(b[kk * s.n + j]));
  for (size_t j = 0; j < s.n; ++j) col[j] = s.sl.shift(mx[j]);
}

void Scale::verify(const Arrays&, const Arrays&, size_t, Verify, StageReport&) const {}

}  // namespace ozref::schemes::ozaki1
