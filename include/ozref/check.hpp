// A computed product C against the exact product of A and B: what `ozref check` reports.
#pragma once
#include <optional>
#include <string>

#include "ozref/array.hpp"
#include "ozref/metrics.hpp"

namespace ozref::api {

// An accuracy floor, as `ozref check --at-least BITS --metric METRIC` sets it.
struct AccuracyFloor {
  double at_least = 0;                // correct bits asked for
  std::string metric = "maxnorm";     // or "elementwise"
};

struct GateResult {
  bool passed = false;
  double bits = 0;      // the figure compared: +inf where C is exact, -inf for a NaN or infinity
                        // mismatch (element-wise also for a nonzero C where E is exactly zero)
  std::string message;  // one line; when it fails: by how much, and the worst element's place and values
};

struct CheckReport {
  size_t m = 0, n = 0, k = 0;
  std::string c_precision;  // "fp64" (an f8 or c16 C, against E rounded to FP64) or "fp32" (an f4 C)
  bool complex = false;     // A or B c16: C is c16, the metrics over its 2mn parts
  Metrics metrics;
  std::optional<GateResult> gate = std::nullopt;  // with a floor
  std::string json;         // the report as `ozref check --json` prints it (one line, no newline)
};

// A (m x k), B (k x n): f8 or f4; C (m x n): f8 or f4. Or a complex product: A or B c16 (a real
// operand beside it has a zero imaginary part) and C c16. InputError as `ozref check` gives it
// (also for a metric other than maxnorm or elementwise, or a floor that is not finite).
CheckReport check(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads = 0,
                  const std::optional<AccuracyFloor>& floor = std::nullopt);

// The same report with the exact product computed where `device` says: "cpu" (the function above)
// or "gpu" (`ozref check --device gpu`; InputError saying why where no usable GPU is present).
// Defined in ozref::device, which a program calling it links.
CheckReport check(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads, const std::optional<AccuracyFloor>& floor,
                  const std::string& device);

}  // namespace ozref::api
