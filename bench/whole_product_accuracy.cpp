#include "whole_product_accuracy.hpp"

#include "api/product_operands.hpp"
#include "exact/gpu_exact.hpp"
#include "exact/metrics.hpp"

namespace ozref::bench {
namespace {
std::unique_ptr<GpuExactProduct> on_gpu(const Operands& ops) { return std::make_unique<GpuExactProduct>(gpu_exact(ops.a, ops.b)); }
}  // namespace

WholeProductAccuracy::WholeProductAccuracy(const Matrix<double>& a, const Matrix<double>& b)
    : exact_(std::make_unique<GpuExactProduct>(gpu_exact(a, b))) {}

WholeProductAccuracy::WholeProductAccuracy(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                                           const Matrix<double>& b_im)
    : exact_(on_gpu(complex_as_real({a_re, a_im}, {b_re, b_im}))) {}

WholeProductAccuracy::~WholeProductAccuracy() = default;

double WholeProductAccuracy::exact_seconds() const { return exact_->gpu_seconds; }

nlohmann::json WholeProductAccuracy::of(const std::vector<double>& c) const {
  const AccuracyMetrics m = measure(c, exact_->sliced.product);
  return {{"maxnorm", m.correct_bits_maxnorm}, {"elementwise", m.correct_bits_elementwise_min}, {"max_ulp", m.max_ulp_error},
          {"elements", m.compared_elements}};
}

}  // namespace ozref::bench
