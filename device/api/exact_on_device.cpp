// api::exact and api::check with a device (include/ozref/exact.hpp, check.hpp): "cpu" is the core
// library's functions, "gpu" the GPU's exact product (exact/gpu_exact.hpp). Here, in ozref::device,
// since the core library cannot depend on the device library.
#include "api/exact_reports.hpp"
#include "api/public_types.hpp"
#include "common/error.hpp"
#include "exact/gpu_exact.hpp"

namespace ozref::api {
namespace {
bool on_gpu(const std::string& device) {
  if (device != "cpu" && device != "gpu") throw InputError("device: expected cpu or gpu, got '" + device + "'");
  return device == "gpu";
}
}  // namespace

ExactProduct exact(const ArrayRef& a, const ArrayRef& b, int threads, const std::string& device) {
  if (!on_gpu(device)) return exact(a, b, threads);
  require_threads(threads);
  const ProductOperands p = product_operands_of(a, b);
  return public_exact(gpu_exact(p.real.a, p.real.b).sliced.product, p);
}

CheckReport check(const ArrayRef& a, const ArrayRef& b, const ArrayRef& c, int threads, const std::optional<AccuracyFloor>& floor,
                  const std::string& device) {
  if (!on_gpu(device)) return check(a, b, c, threads, floor);
  return check_report(a, b, c, threads, floor, [](const Operands& ops) { return gpu_exact(ops.a, ops.b).sliced.product; });
}

}  // namespace ozref::api
