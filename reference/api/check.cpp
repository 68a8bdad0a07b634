// api::check (include/ozref/check.hpp): what `ozref check` computes and reports.
#include "ozref/check.hpp"

#include <cmath>

#include "api/check_product.hpp"
#include "api/exact_reports.hpp"
#include "common/error.hpp"
#include "api/public_types.hpp"
#include "api/report_json.hpp"
#include "io/json_text.hpp"

namespace ozref::api {

CheckReport check_report(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads, const std::optional<AccuracyFloor>& floor,
                         const ExactOf& exact_of) {
  require_threads(threads);
  std::optional<AccuracyGate> gate;
  if (floor) {
    if (!std::isfinite(floor->at_least)) throw InputError("at_least: expected a finite number of bits");
    gate = AccuracyGate{gate_metric_named(floor->metric, "metric"), floor->at_least};
  }
  const ProductOperands p = product_operands_of(a, b);
  const NpyArray cn = c_as_real(npy_of(c), p, c.name);  // before the work
  CheckOutcome r = check_product_against(exact_of(p.real), cn, p, c.name, threads);
  r.gate = gate;
  CheckReport report{.m = r.m, .n = r.n, .k = r.k, .c_precision = r.c_precision, .complex = r.complex, .metrics = public_metrics(r.metrics),
                     .gate = std::nullopt, .json = json_text(check_json(r))};
  if (gate) {
    const GateVerdict v = judge(r.metrics, *gate);
    report.gate = GateResult{v.passed, v.bits, v.message};
  }
  return report;
}

CheckReport check(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads, const std::optional<AccuracyFloor>& floor) {
  return check_report(a, b, c, threads, floor, [threads](const Operands& ops) { return exact_gemm(ops.a, ops.b, {.threads = threads}); });
}

}  // namespace ozref::api
