// The accuracy of a GPU result over the whole product, not a sample: the exact product of A and B
// computed once on the GPU (exact/gpu_exact.hpp, bit for bit the CPU's exact product), then every
// element of each result measured against it (exact/metrics.hpp): correct bits in the max norm and
// element-wise, as `ozref check` reports them. A complex product is measured part by part, as
// `ozref check` measures a complex C (docs/exact.md, "Complex products").
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
  // The complex product (A_re + i A_im)(B_re + i B_im).
  WholeProductAccuracy(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re, const Matrix<double>& b_im);
  ~WholeProductAccuracy();
  // {"maxnorm", "elementwise", "max_ulp", "elements"} of a row-major C of every element; a complex
  // C as each element's real part, then its imaginary part (ZGEMM's layout).
  nlohmann::json of(const std::vector<double>& c) const;
  double exact_seconds() const;

 private:
  std::unique_ptr<GpuExactProduct> exact_;
};

}  // namespace ozref::bench
