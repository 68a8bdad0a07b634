// api::check (include/ozref/check.hpp): what `ozref check` computes and reports.
#include "ozref/check.hpp"

#include <cmath>

#include "api/check_product.hpp"
#include "common/error.hpp"
#include "api/public_types.hpp"
#include "api/report_json.hpp"
#include "io/json_text.hpp"

namespace ozref::api {

CheckReport check(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads, const std::optional<AccuracyFloor>& floor) {
  require_threads(threads);
  std::optional<AccuracyGate> gate;
  if (floor) {
    if (!std::isfinite(floor->at_least)) throw InputError("at_least: expected a finite number of bits");
    gate = AccuracyGate{gate_metric_named(floor->metric, "metric"), floor->at_least};
  }
  const Operands ops = operands_of(a, b);
  CheckOutcome r = check_product(ops, npy_of(c), c.name, threads);
  r.gate = gate;
  CheckReport report{.m = r.m, .n = r.n, .k = r.k, .c_precision = r.c_precision, .metrics = public_metrics(r.metrics),
                     .gate = std::nullopt, .json = json_text(check_json(r))};
  if (gate) {
    const GateVerdict v = judge(r.metrics, *gate);
    report.gate = GateResult{v.passed, v.bits, v.message};
  }
  return report;
}

}  // namespace ozref::api
