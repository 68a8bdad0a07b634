// The exact product on the GPU (`ozref exact --device gpu`, `ozref check --device gpu`): the sliced
// exact product (exact/sliced_exact.hpp) with its residues, int8 GEMMs (cuBLASLt), Garner's
// reconstruction, exact accumulation and rounding in device/exact/, each element by the functions
// of exact/exact_element.hpp. Bit for bit exact_gemm's product: nearest, FP32, residual.
#pragma once
#include <string>

#include "common/matrix.hpp"
#include "exact/sliced_exact.hpp"

namespace ozref {

struct GpuExactProduct {
  SlicedProduct sliced;  // the product and its plan (plan.pairs summed over the panels)
  size_t panels = 0;     // bands of rows of C, one after another, each within the GPU's memory
  std::string device;    // "NVIDIA H200 (sm_90, 132 SMs)"
  std::string gemm = "cuBLASLt";  // the int8 GEMMs: cuBLASLt, or mma.sync (ozref's kernel) and why
  double gpu_seconds = 0;  // from the first upload to the last download
};

// InputError saying why when no usable GPU is present (or ozref was built without CUDA).
GpuExactProduct gpu_exact(const Matrix<double>& a, const Matrix<double>& b);

}  // namespace ozref
