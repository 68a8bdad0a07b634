// api::check (include/ozref/check.hpp): what `ozref check` computes and reports.
#include "ozref/check.hpp"

#include "api/check_product.hpp"
#include "api/public_types.hpp"
#include "api/report_json.hpp"
#include "io/json_text.hpp"

namespace ozref::api {

CheckReport check(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads) {
  require_threads(threads);
  const Operands ops = operands_of(a, b);
  const CheckOutcome r = check_product(ops, npy_of(c), c.name, threads);
  return {.m = r.m, .n = r.n, .k = r.k, .c_precision = r.c_precision, .metrics = public_metrics(r.metrics), .json = json_text(check_json(r))};
}

}  // namespace ozref::api
