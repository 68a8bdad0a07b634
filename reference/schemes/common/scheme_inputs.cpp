#include "schemes/common/scheme_inputs.hpp"

#include <algorithm>
#include <utility>

namespace ozref::schemes {

Arrays input_arrays(const std::vector<MatrixView<double>>& a_parts, const std::vector<MatrixView<double>>& b_parts) {
  Arrays in;
  for (auto [name, parts] : {std::pair{"a", &a_parts}, std::pair{"b", &b_parts}}) {
    const MatrixView<double>& first = parts->front();
    std::vector<size_t> shape = {first.rows, first.cols};
    if (parts->size() == 2) shape.insert(shape.begin(), 2);
    Tensor& t = in.put({kInputStage, name}, Tensor(DType::F8, shape));
    for (size_t s = 0; s < parts->size(); ++s) std::copy_n((*parts)[s].data, first.size(), t.as<double>() + s * first.size());
  }
  return in;
}

StackedComplex real_operands(const Tensor& a, const Tensor& b, size_t parts, size_t m, size_t n, size_t k) {
  const double *x = a.as<double>(), *y = b.as<double>();
  if (parts == 2) return stack_complex({x, m, k}, {x + m * k, m, k}, {y, k, n}, {y + k * n, k, n});
  StackedComplex r{Matrix<double>(m, k), Matrix<double>(k, n)};
  std::copy_n(x, m * k, r.a.data.begin());
  std::copy_n(y, k * n, r.b.data.begin());
  return r;
}

StackedComplex stack_complex(MatrixView<double> a_re, MatrixView<double> a_im, MatrixView<double> b_re,
                             MatrixView<double> b_im) {
  const size_t m = a_re.rows, k = a_re.cols, n = b_re.cols;
  StackedComplex s{Matrix<double>(2 * m, 2 * k), Matrix<double>(2 * k, n)};
  for (size_t i = 0; i < m; ++i)
    for (size_t kk = 0; kk < k; ++kk) {
      s.a(i, kk) = a_re(i, kk);
      s.a(i, k + kk) = -a_im(i, kk);
      s.a(m + i, kk) = a_im(i, kk);
      s.a(m + i, k + kk) = a_re(i, kk);
    }
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) {
      s.b(kk, j) = b_re(kk, j);
      s.b(k + kk, j) = b_im(kk, j);
    }
  return s;
}

}  // namespace ozref::schemes
