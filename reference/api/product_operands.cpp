#include "api/product_operands.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

#include "common/error.hpp"
#include "exact/exact_gemm.hpp"

namespace ozref {

void require_operand(const NpyArray& x, const std::string& name) {
  if (x.shape.size() != 2) throw InputError(name + ": expected a 2-D matrix, got " + std::to_string(x.shape.size()) + " dimensions");
  if (x.dtype != DType::F8 && x.dtype != DType::F4 && x.dtype != DType::C16)
    throw InputError(name + ": expected dtype f8, f4 or c16, got " + std::string(dtype_name(x.dtype)));
}

namespace {
// Element (row, col) of a 2-D array as (re, im): f8 and f4 (widened exactly) with a zero imaginary part.
struct ComplexAt {
  const NpyArray& x;
  std::pair<double, double> operator()(size_t row, size_t col) const {
    const size_t e = row * x.shape[1] + col;
    if (x.dtype != DType::C16) return {float_element(x, e), 0.0};
    double part[2];
    std::memcpy(part, &x.data[16 * e], 16);
    return {part[0], part[1]};
  }
};

// Elements of ComplexMatrix parts as (re, im).
struct PartsAt {
  const ComplexMatrix& x;
  std::pair<double, double> operator()(size_t row, size_t col) const { return {x.re(row, col), x.im(row, col)}; }
};

// A (rows x cols) as rows x 2 cols: each element's real part, then its imaginary part.
template <typename At>
Matrix<double> interleaved(size_t rows, size_t cols, At at) {
  Matrix<double> x(rows, 2 * cols);
  for (size_t i = 0; i < rows; ++i)
    for (size_t l = 0; l < cols; ++l) std::tie(x(i, 2 * l), x(i, 2 * l + 1)) = at(i, l);
  return x;
}

// B (k x n) as 2k x 2n, b's block [[re, im], [-im, re]]: a row of interleaved(A) times column
// 2j gives Re C[i, j], times column 2j + 1 gives Im C[i, j].
template <typename At>
Matrix<double> expanded(size_t k, size_t n, At at) {
  Matrix<double> x(2 * k, 2 * n);
  for (size_t l = 0; l < k; ++l)
    for (size_t j = 0; j < n; ++j) {
      const auto [re, im] = at(l, j);
      x(2 * l, 2 * j) = re, x(2 * l, 2 * j + 1) = im;
      x(2 * l + 1, 2 * j) = -im, x(2 * l + 1, 2 * j + 1) = re;
    }
  return x;
}

// The operands are read straight from the arrays: the expansions are the only copies made.
ProductOperands complex_operands(const NpyArray& a, const std::string& a_name, const NpyArray& b, const std::string& b_name) {
  const size_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
  require_agreeing_shapes(m, k, a_name, b.shape[0], n, b_name);
  require_product_memory(m, 2 * n, 8.0 * (2.0 * double(m) * double(k) + 4.0 * double(k) * double(n)),
                         "the complex product of A (" + a_name + ", " + shape_text(m, k) + ") and B (" + b_name + ", " +
                             shape_text(k, n) + ")");
  return {{interleaved(m, k, ComplexAt{a}), expanded(k, n, ComplexAt{b})}, true, m, n, k};
}

// The places of a complex C's metrics, from the real product's (i, 2j + part) to (i, j) and the part.
void name_part(size_t& col, const char*& part) {
  part = col % 2 ? "imag" : "real";
  col /= 2;
}
}  // namespace

Operands complex_as_real(const ComplexMatrix& a, const ComplexMatrix& b) {
  return {interleaved(a.re.rows, a.re.cols, PartsAt{a}), expanded(b.re.rows, b.re.cols, PartsAt{b})};
}

ProductOperands product_operands(const NpyArray& a, const std::string& a_name, const NpyArray& b, const std::string& b_name) {
  require_operand(a, a_name);
  require_operand(b, b_name);
  if (a.dtype == DType::C16 || b.dtype == DType::C16) return complex_operands(a, a_name, b, b_name);
  Operands ops = checked_operands(matrix_from_npy(a, a_name), a_name, matrix_from_npy(b, b_name), b_name);
  const size_t m = ops.a.rows, k = ops.a.cols, n = ops.b.cols;
  return {std::move(ops), false, m, n, k};
}

ProductOperands load_product_operands(const std::string& a_path, const std::string& b_path) {
  const NpyArray a = read_npy(a_path);
  require_operand(a, a_path);  // A refused before B is opened
  return product_operands(a, a_path, read_npy(b_path), b_path);
}

NpyArray product_npy(const ExactProduct& e, bool complex) {
  NpyArray c;
  c.dtype = complex ? DType::C16 : DType::F8;
  c.shape = {e.rows, complex ? e.cols / 2 : e.cols};
  c.data.resize(e.nearest.size() * sizeof(double));
  // std::copy, not memcpy: an empty product's data() may be null, which memcpy must not be given
  const auto* first = reinterpret_cast<const uint8_t*>(e.nearest.data());
  std::copy(first, first + c.data.size(), c.data.begin());
  return c;
}

NpyArray c_as_real(NpyArray c, const ProductOperands& p, const std::string& c_name) {
  if (!p.complex) {
    require_c_matching(c.shape, c.dtype, p.m, p.n, c_name);
    return c;
  }
  require_c_shape(c.shape, p.m, p.n, c_name);
  if (c.dtype != DType::C16)
    throw InputError(c_name + ": expected dtype c16 (complex128) for the complex product of A and B, got " + std::string(dtype_name(c.dtype)));
  c.dtype = DType::F8;
  c.shape[1] *= 2;
  return c;
}

CheckOutcome check_product_against(const ExactProduct& e, const NpyArray& c_real, const ProductOperands& p,
                                   const std::string& c_name, int threads) {
  CheckOutcome r = check_against(e, c_real, c_name, threads);
  if (!p.complex) return r;
  r.complex = true, r.n = p.n, r.k = p.k;
  for (WorstElement* w : {&r.metrics.worst_maxnorm, &r.metrics.worst_elementwise})
    if (w->present) name_part(w->col, w->part);
  SpecialMismatch& s = r.metrics.first_special_mismatch;
  if (s.kind != SpecialMismatch::Kind::None) name_part(s.col, s.part);
  return r;
}

}  // namespace ozref
