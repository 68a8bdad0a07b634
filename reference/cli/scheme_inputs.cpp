#include "cli/scheme_inputs.hpp"

#include "common/distributions.hpp"
#include "common/error.hpp"
#include "common/memory_budget.hpp"
#include "schemes/common/scheme_inputs.hpp"

namespace ozref::cli {

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
