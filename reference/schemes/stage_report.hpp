// What a scheme run reports: each named stage, whether its contract was checked and held, and its
// violations (how many, and the first one, with where it happened and the values on both sides).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "common/matrix.hpp"
#include "exact/metrics.hpp"

namespace ozref::schemes {

enum class Verify { None, Cheap, Full };
Verify parse_verify(const std::string& name);  // "none", "cheap", "full"

struct StageReport {
  std::string name;
  bool checked = false;
  size_t violations = 0;
  std::string first_violation;
  std::vector<std::string> notes;  // per-part summaries, e.g. "modulus 443 GEMM 2: 17 of 64 elements not exact"
  double seconds = 0;
  bool verified() const { return checked && violations == 0; }
  void violate(const std::string& what) {
    if (violations++ == 0) first_violation = what;
  }
  // The violations of a part checked on its own (in parallel), after this report's own.
  void absorb(const StageReport& later) {
    if (violations == 0) first_violation = later.first_violation;
    violations += later.violations;
  }
  void note(const std::string& what) {
    if (notes.size() < 20) notes.push_back(what);
  }
};

struct SchemeResult {
  std::vector<StageReport> stages;
  Matrix<double> c;
  Matrix<double> c_imag;  // complex runs: the imaginary part (c is the real part)
  size_t low_precision_gemms = 0;
  bool exactness_conditions = false;  // the scheme's bound held (e.g. sum |A'||B'| < P/2)
  bool exact = false;                 // every stage verified and the conditions held
  AccuracyMetrics accuracy;
  double pipeline_seconds = 0;  // the stages alone (what a kernel would do), without the accuracy measurement
  double seconds = 0;           // the whole run
};

}  // namespace ozref::schemes
