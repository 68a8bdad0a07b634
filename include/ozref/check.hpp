// A computed product C against the exact product of A and B: what `ozref check` reports.
#pragma once
#include <string>

#include "ozref/array.hpp"
#include "ozref/metrics.hpp"

namespace ozref::api {

struct CheckReport {
  size_t m = 0, n = 0, k = 0;
  std::string c_precision;  // "fp64" (an f8 C, against E rounded to FP64) or "fp32" (an f4 C)
  Metrics metrics;
  std::string json;         // the report as `ozref check --json` prints it (one line, no newline)
};

// A (m x k), B (k x n): f8 or f4; C (m x n): f8 or f4. InputError as `ozref check` gives it.
CheckReport check(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads = 0);

}  // namespace ozref::api
