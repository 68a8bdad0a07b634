// An accuracy floor on a checked product (`ozref check --at-least BITS [--metric M]`, the Python
// testing helpers): one definition of the figure a gate compares and of the message it gives.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "exact/metrics.hpp"

namespace ozref {

enum class GateMetric { Maxnorm, Elementwise };

struct AccuracyGate {
  GateMetric metric = GateMetric::Maxnorm;
  double at_least = 0;  // correct bits asked for
};

struct GateVerdict {
  double bits = 0;  // the figure compared (gated_bits)
  bool passed = false;
  std::string message;  // one line: the figure, the floor, and where C is worst when it fails
};

// InputError unless `name` is "maxnorm" or "elementwise".
GateMetric gate_metric_named(const std::string& name, const std::string& where);
const char* gate_metric_name(GateMetric metric);

// The metric's correct bits, as a number: +inf where no compared element errs (C is exact),
// -inf where C has a NaN or infinity the exact product has not (or the reverse), and, for the
// element-wise figure, where C is nonzero on an exactly zero element (an infinite relative error).
double gated_bits(const AccuracyMetrics& m, GateMetric metric);

GateVerdict judge(const AccuracyMetrics& m, const AccuracyGate& gate);
nlohmann::json gate_json(const AccuracyGate& gate, const GateVerdict& verdict);

}  // namespace ozref
