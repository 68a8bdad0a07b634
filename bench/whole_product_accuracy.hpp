// The accuracy of a GPU result over the whole product, not a sample: the exact product of A and B
// computed once on the GPU (exact/gpu_exact.hpp, bit for bit the CPU's exact product), then every
// element of each result measured against it (exact/metrics.hpp): correct bits in the max norm and
// element-wise, as `ozref check` reports them.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/matrix.hpp"

namespace ozref {
struct GpuExactProduct;  // exact/gpu_exact.hpp, C++20: kept out of the benchmark's C++17 CUDA file
}

namespace ozref::bench {

class WholeProductAccuracy {
 public:
  WholeProductAccuracy(const Matrix<double>& a, const Matrix<double>& b);
  ~WholeProductAccuracy();
  // {"maxnorm", "elementwise", "max_ulp", "elements"} of a row-major C of every element.
  nlohmann::json of(const std::vector<double>& c) const;
  double exact_seconds() const;

 private:
  std::unique_ptr<GpuExactProduct> exact_;
};

}  // namespace ozref::bench
