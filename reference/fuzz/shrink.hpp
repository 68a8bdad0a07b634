// Shrinking a failing case (docs/fuzz.md, "Shrinking"): fewer rows, columns and K, then simpler
// values, each step kept only while the failure persists.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "fuzz/properties.hpp"

namespace ozref::fuzz {

// The failure's verdict on A and B when it persists there, else empty.
using StillFails = std::function<std::optional<Verdict>(const Matrix<double>& a, const Matrix<double>& b)>;

struct ShrinkLimits {
  double seconds = 30;
  size_t attempts = 100000;
};

struct Shrunk {
  Matrix<double> a = {}, b = {};
  Verdict verdict = {};                // of the last accepted step (the original's when none was)
  std::vector<std::string> steps = {}; // the accepted steps, in order ("drop rows 4..7 of A", "A[0,2] = 0")
  size_t attempts = 0;             // candidates tried
  double seconds = 0;
  bool budget_ran_out = false;
};

Shrunk shrink(const StillFails& still_fails, Matrix<double> a, Matrix<double> b, Verdict original, const ShrinkLimits& limits);

// x rounded to nearest (ties away) with `bits` significant bits; 0 and non-finite x unchanged.
double with_mantissa_bits(double x, int bits);

}  // namespace ozref::fuzz
