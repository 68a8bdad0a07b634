// unscale: C = scalbn(crt, sftA_i + sftB_j), GEMMul8's inverse scaling (alpha = 1, beta = 0: its
// special kernel stores the product itself), sftA_i = -(row i's shift), sftB_j = -(column j's).
#include <cmath>

#include "schemes/gemmul8/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes::gemmul8 {

std::vector<ArrayRef> Unscale::inputs() const {
  return {{Crt::kName, "c"}, {Scale::kName, "row_shift"}, {Scale::kName, "col_shift"}};
}

std::vector<ArraySpec> Unscale::outputs() const { return {{"c", DType::F8, {{"m", s_->m}, {"n", s_->n}}, {}}}; }

void Unscale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const double* x = in.data<double>({Crt::kName, "c"});
  const int32_t *row = in.data<int32_t>({Scale::kName, "row_shift"}), *col = in.data<int32_t>({Scale::kName, "col_shift"});
  double* c = out.data<double>(ref("c"));
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = 0; j < s.n; ++j) c[i * s.n + j] = std::scalbn(x[i * s.n + j], clamped_exponent(-(int64_t{row[i]} + col[j])));
}

// Contract (cheap): each element is x 2^-(s_i + t_j) rounded to the nearest double (exact unless it
// leaves the normal range), from the exact value of x.
void Unscale::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const double* x = in.data<double>({Crt::kName, "c"});
  const int32_t *row = in.data<int32_t>({Scale::kName, "row_shift"}), *col = in.data<int32_t>({Scale::kName, "col_shift"});
  const double* c = out.data<double>(ref("c"));
  parallel_check(s.m * s.n, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t v = v0; v < v1; ++v) {
      const size_t i = v / s.n, j = v % s.n;
      int e = 0;
      const double frac = std::frexp(x[v], &e);
      const bool finite = std::isfinite(x[v]);
      const mpz_class sig(finite ? std::ldexp(frac, 53) : 0.0);  // x = sig * 2^(e - 53), exactly
      if (finite ? !is_correct_rounding(sig, clamped_exponent(int64_t{e} - 53 - row[i] - col[j]), c[v]) : !(c[v] == x[v] || (std::isnan(c[v]) && std::isnan(x[v]))))
        part.violate(element_name("unscale.c", {{"i", i}, {"j", j}}) + " = " + std::to_string(c[v]) + " is not C' 2^-(s+t) rounded");
    }
  });
}

}  // namespace ozref::schemes::gemmul8
