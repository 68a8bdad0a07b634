#include "api/scheme_inputs.hpp"

#include "common/error.hpp"
#include "schemes/common/scheme_inputs.hpp"

namespace ozref {

SchemeInputs real_scheme_inputs(const Operands& ops, const std::string& a_name, const std::string& b_name) {
  SchemeInputs x;
  x.arrays = schemes::input_arrays({ops.a}, {ops.b});
  x.m = ops.a.rows, x.k = ops.a.cols, x.n = ops.b.cols;
  x.source = a_name + ", " + b_name;
  return x;
}

SchemeInputs complex_scheme_inputs(const ComplexMatrix& a, const std::string& a_name, const ComplexMatrix& b, const std::string& b_name) {
  if (a.re.cols != b.re.rows)
    throw InputError("shapes do not agree: A (" + a_name + ") is " + std::to_string(a.re.rows) + "x" + std::to_string(a.re.cols) +
                     " but B (" + b_name + ") is " + std::to_string(b.re.rows) + "x" + std::to_string(b.re.cols));
  SchemeInputs x;
  x.arrays = schemes::input_arrays({a.re, a.im}, {b.re, b.im});
  x.m = a.re.rows, x.k = a.re.cols, x.n = b.re.cols;
  x.source = a_name + ", " + b_name;
  return x;
}

SchemeInputs scheme_inputs_from_files(const std::string& a_path, const std::string& b_path, bool complex) {
  if (!complex) return real_scheme_inputs(load_operands(a_path, b_path), a_path, b_path);
  const ComplexMatrix a = complex_from_npy(read_npy(a_path), a_path), b = complex_from_npy(read_npy(b_path), b_path);
  return complex_scheme_inputs(a, a_path, b, b_path);
}

}  // namespace ozref
