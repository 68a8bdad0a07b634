// Test-matrix distributions, named as on the command line:
//   randn        standard normal
//   uniform      uniform in [0, 1)
//   phi:X        (rand - 0.5) * exp(X * randn), the generator of the Ozaki-scheme papers
//   integers:R   integers uniform in [-R, R]
#pragma once
#include <cstdint>
#include <string>

#include "common/matrix.hpp"
#include "common/rng.hpp"

namespace ozref {

struct Distribution {
  enum Kind { Randn, Uniform, Phi, Integers } kind = Phi;
  double parameter = 1.0;  // phi, or R for integers
};

Distribution parse_distribution(const std::string& text);  // InputError names a bad spelling
std::string to_string(const Distribution& d);
Matrix<double> random_matrix(size_t rows, size_t cols, const Distribution& d, Rng& rng);

}  // namespace ozref
