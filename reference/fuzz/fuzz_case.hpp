// One case of a fuzz campaign: the operands, and where they came from (enough to make them again).
#pragma once
#include <cstdint>
#include <string>

#include "common/matrix.hpp"

namespace ozref::fuzz {

struct FuzzCase {
  Matrix<double> a = {};  // m x k
  Matrix<double> b = {};  // k x n
  std::string generator = {};  // its catalogue name with the parameter drawn ("exponent-span:60"), or "replay"
  uint64_t index = 0;     // the case's index in its campaign
  uint64_t seed = 0;      // the case seed: case_seed(run seed, index)
  bool replayed() const { return generator.starts_with("replay "); }
  // "case 3 (case seed S)", or "replay DIR" for a replayed one.
  std::string origin() const { return replayed() ? generator : "case " + std::to_string(index) + " (case seed " + std::to_string(seed) + ")"; }
  size_t m() const { return a.rows; }
  size_t n() const { return b.cols; }
  size_t k() const { return a.cols; }
};

}  // namespace ozref::fuzz
