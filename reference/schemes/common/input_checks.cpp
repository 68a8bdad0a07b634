#include "schemes/common/input_checks.hpp"

#include <cmath>

#include "common/error.hpp"

namespace ozref::schemes {

std::string non_finite_message(const std::string& scheme, const char* name, size_t i, size_t j) {
  return scheme + ": " + name + "[" + std::to_string(i) + "," + std::to_string(j) + "] is not finite; the scheme needs finite inputs";
}

size_t first_non_finite(MatrixView<double> m) {
  for (size_t i = 0; i < m.size(); ++i)
    if (!std::isfinite(m.data[i])) return i;
  return m.size();
}

void require_finite(MatrixView<double> m, const char* scheme, const char* name) {
  if (const size_t i = first_non_finite(m); i < m.size()) throw InputError(non_finite_message(scheme, name, i / m.cols, i % m.cols));
}

void require_product_shapes(size_t a_rows, size_t a_cols, size_t b_rows, size_t b_cols, const std::string& scheme) {
  if (a_cols != b_rows)
    throw InputError(scheme + ": A is " + std::to_string(a_rows) + "x" + std::to_string(a_cols) + " but B is " +
                     std::to_string(b_rows) + "x" + std::to_string(b_cols));
}

}  // namespace ozref::schemes
