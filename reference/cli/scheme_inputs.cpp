#include "cli/scheme_inputs.hpp"

#include "cli/operands.hpp"
#include "common/distributions.hpp"
#include "common/error.hpp"
#include "common/memory_budget.hpp"
#include "io/npy.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::cli {

SchemeInputs scheme_inputs_from_files(const std::string& a_path, const std::string& b_path, bool complex) {
  SchemeInputs x;
  if (complex) {
    const ComplexMatrix a = complex_from_npy(read_npy(a_path), a_path), b = complex_from_npy(read_npy(b_path), b_path);
    if (a.re.cols != b.re.rows)
      throw InputError("shapes do not agree: A (" + a_path + ") is " + std::to_string(a.re.rows) + "x" + std::to_string(a.re.cols) +
                       " but B (" + b_path + ") is " + std::to_string(b.re.rows) + "x" + std::to_string(b.re.cols));
    x.arrays = schemes::input_arrays({a.re, a.im}, {b.re, b.im});
    x.m = a.re.rows, x.k = a.re.cols, x.n = b.re.cols;
  } else {
    const Operands ops = load_operands(a_path, b_path);
    x.arrays = schemes::input_arrays({ops.a}, {ops.b});
    x.m = ops.a.rows, x.k = ops.a.cols, x.n = ops.b.cols;
  }
  x.source = a_path + ", " + b_path;
  return x;
}

SchemeInputs scheme_inputs_generated(size_t m, size_t n, size_t k, const std::string& dist, uint64_t seed, bool complex) {
  // The operands, the scheme's largest intermediates (a few times each) and C: refused up front.
  require_memory(8.0 * (complex ? 2 : 1) * (double(m) * k + double(k) * n + double(m) * n) * 4, "--m x --k and --k x --n operands");
  Rng rng(seed);
  const Distribution d = parse_distribution(dist);
  const Matrix<double> a = random_matrix(m, k, d, rng), b = random_matrix(k, n, d, rng);
  SchemeInputs x;
  if (complex) {  // drawn after the real parts, so those match a real run's
    const Matrix<double> a_im = random_matrix(m, k, d, rng), b_im = random_matrix(k, n, d, rng);
    x.arrays = schemes::input_arrays({a, a_im}, {b, b_im});
  } else {
    x.arrays = schemes::input_arrays({a}, {b});
  }
  x.m = m, x.n = n, x.k = k;
  x.source = to_string(d) + ", seed " + std::to_string(seed);
  return x;
}

}  // namespace ozref::cli
