#include "api/operands.hpp"

#include "common/error.hpp"
#include "common/memory_budget.hpp"
#include "io/npy.hpp"

namespace ozref {

std::string shape_text(size_t rows, size_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

double exact_product_bytes(size_t rows, size_t cols) {
  return double(rows) * double(cols) * double(sizeof(double) + sizeof(long double) + sizeof(uint8_t) + sizeof(float));  // ExactProduct
}

void require_agreeing_shapes(size_t m, size_t k, const std::string& a_name, size_t b_rows, size_t n, const std::string& b_name) {
  if (k != b_rows)
    throw InputError("shapes do not agree: A (" + a_name + ") is " + shape_text(m, k) + " but B (" + b_name + ") is " +
                     shape_text(b_rows, n));
}

void require_product_memory(size_t rows, size_t cols, double operand_bytes, const std::string& what) {
  require_memory(operand_bytes + exact_product_bytes(rows, cols) + 8.0 * double(rows) * double(cols), what);
}

Operands checked_operands(Matrix<double> a, const std::string& a_name, Matrix<double> b, const std::string& b_name) {
  Operands ops{std::move(a), std::move(b)};
  require_agreeing_shapes(ops.a.rows, ops.a.cols, a_name, ops.b.rows, ops.b.cols, b_name);
  require_product_memory(ops.a.rows, ops.b.cols, 0,
                         "the product of A (" + a_name + ", " + shape_text(ops.a.rows, ops.a.cols) + ") and B (" + b_name + ", " +
                             shape_text(ops.b.rows, ops.b.cols) + ")");
  return ops;
}

Operands load_operands(const std::string& a_path, const std::string& b_path) {
  Matrix<double> a = matrix_from_npy(read_npy(a_path), a_path);  // A read and refused before B is opened
  Matrix<double> b = matrix_from_npy(read_npy(b_path), b_path);
  return checked_operands(std::move(a), a_path, std::move(b), b_path);
}

}  // namespace ozref
