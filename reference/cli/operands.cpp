#include "cli/operands.hpp"

#include "common/error.hpp"
#include "io/npy.hpp"

namespace ozref::cli {

Operands load_operands(const std::string& a_path, const std::string& b_path) {
  Operands ops{matrix_from_npy(read_npy(a_path), a_path), matrix_from_npy(read_npy(b_path), b_path)};
  if (ops.a.cols != ops.b.rows)
    throw InputError("shapes do not agree: A (" + a_path + ") is " + std::to_string(ops.a.rows) +
                     "x" + std::to_string(ops.a.cols) + " but B (" + b_path + ") is " +
                     std::to_string(ops.b.rows) + "x" + std::to_string(ops.b.cols));
  return ops;
}

}  // namespace ozref::cli
