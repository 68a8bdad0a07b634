#include "api/operands.hpp"

#include "common/error.hpp"
#include "common/memory_budget.hpp"
#include "io/npy.hpp"

namespace ozref {
namespace {
std::string shape_text(const Matrix<double>& m) { return std::to_string(m.rows) + "x" + std::to_string(m.cols); }
}  // namespace

double exact_product_bytes(size_t rows, size_t cols) { return double(rows) * double(cols) * (8 + 8 + 1 + 4); }

Operands checked_operands(Matrix<double> a, const std::string& a_name, Matrix<double> b, const std::string& b_name) {
  Operands ops{std::move(a), std::move(b)};
  if (ops.a.cols != ops.b.rows)
    throw InputError("shapes do not agree: A (" + a_name + ") is " + shape_text(ops.a) + " but B (" + b_name + ") is " +
                     shape_text(ops.b));
  require_memory(exact_product_bytes(ops.a.rows, ops.b.cols) + 8.0 * double(ops.a.rows) * double(ops.b.cols),
                 "the product of A (" + a_name + ", " + shape_text(ops.a) + ") and B (" + b_name + ", " + shape_text(ops.b) + ")");
  return ops;
}

Operands load_operands(const std::string& a_path, const std::string& b_path) {
  Matrix<double> a = matrix_from_npy(read_npy(a_path), a_path);  // A read and refused before B is opened
  Matrix<double> b = matrix_from_npy(read_npy(b_path), b_path);
  return checked_operands(std::move(a), a_path, std::move(b), b_path);
}

}  // namespace ozref
