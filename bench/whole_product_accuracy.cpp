#include "whole_product_accuracy.hpp"

#include "exact/gpu_exact.hpp"
#include "exact/metrics.hpp"

namespace ozref::bench {

WholeProductAccuracy::WholeProductAccuracy(const Matrix<double>& a, const Matrix<double>& b)
    : exact_(std::make_unique<GpuExactProduct>(gpu_exact(a, b))) {}

WholeProductAccuracy::~WholeProductAccuracy() = default;

double WholeProductAccuracy::exact_seconds() const { return exact_->gpu_seconds; }

nlohmann::json WholeProductAccuracy::of(const std::vector<double>& c) const {
  const AccuracyMetrics m = measure(c, exact_->sliced.product);
  return {{"maxnorm", m.correct_bits_maxnorm}, {"elementwise", m.correct_bits_elementwise_min}, {"max_ulp", m.max_ulp_error},
          {"elements", m.compared_elements}};
}

}  // namespace ozref::bench
