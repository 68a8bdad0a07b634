// stack (complex runs, 4M): the real product [A_re -A_im; A_im A_re] [B_re; B_im] = [Re C; Im C],
// so that every slice GEMM covers the four products and the two contributions to each part share
// one accumulator.
#include "schemes/ozaki1/stages.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/scheme_inputs.hpp"

namespace ozref::schemes::ozaki1 {

std::vector<ArrayRef> Stack::inputs() const { return {{kInputStage, "a"}, {kInputStage, "b"}}; }

std::vector<ArraySpec> Stack::outputs() const {
  const Setup& s = *s_;
  return {{"a", DType::F8, {{"2m", s.m}, {"2k", s.k}}, {}}, {"b", DType::F8, {{"2k", s.k}, {"n", s.n}}, {}}};
}

void Stack::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const size_t m = s.m / 2, k = s.k / 2, n = s.n;
  const double *a = in.data<double>({kInputStage, "a"}), *b = in.data<double>({kInputStage, "b"});
  const StackedComplex x = stack_complex({a, m, k}, {a + m * k, m, k}, {b, k, n}, {b + k * n, k, n});
  std::copy(x.a.data.begin(), x.a.data.end(), out.data<double>(ref("a")));
  std::copy(x.b.data.begin(), x.b.data.end(), out.data<double>(ref("b")));
}

// Contract (cheap): each block the part it must hold.
void Stack::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const size_t m = s.m / 2, k = s.k / 2, n = s.n;
  const double *a = in.data<double>({kInputStage, "a"}), *b = in.data<double>({kInputStage, "b"});
  const double *sa = out.data<double>(ref("a")), *sb = out.data<double>(ref("b"));
  for (size_t i = 0; i < m; ++i)
    for (size_t kk = 0; kk < k; ++kk) {
      const double re = a[i * k + kk], im = a[m * k + i * k + kk];
      if (sa[i * 2 * k + kk] != re || sa[i * 2 * k + k + kk] != -im || sa[(m + i) * 2 * k + kk] != im || sa[(m + i) * 2 * k + k + kk] != re)
        report.violate(element_name("stack.a", {{"i", i}, {"k", kk}}) + " does not hold [A_re -A_im; A_im A_re]");
    }
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j)
      if (sb[kk * n + j] != b[kk * n + j] || sb[(k + kk) * n + j] != b[k * n + kk * n + j])
        report.violate(element_name("stack.b", {{"k", kk}, {"j", j}}) + " does not hold [B_re; B_im]");
}

}  // namespace ozref::schemes::ozaki1
