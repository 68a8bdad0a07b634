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

// The largest phi: Box-Muller draws stay below 8.6 in magnitude (53-bit uniforms), so
// exp(64 * randn) < 2^794 keeps every generated value finite.
constexpr double kMaxPhi = 64;

struct Distribution {
  enum Kind { Randn, Uniform, Phi, Integers } kind = Phi;
  double parameter = 1.0;  // phi, or R for integers
};

// InputError naming a bad spelling, or phi outside [0, kMaxPhi] (NaN included).
Distribution parse_distribution(const std::string& text);
std::string to_string(const Distribution& d);
Matrix<double> random_matrix(size_t rows, size_t cols, const Distribution& d, Rng& rng);

}  // namespace ozref
