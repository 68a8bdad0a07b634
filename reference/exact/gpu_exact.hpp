// The exact product on the GPU (`ozref exact --device gpu`, `ozref check --device gpu`): the sliced
// exact product (exact/sliced_exact.hpp) with its residues, int8 GEMMs (cuBLASLt), Garner's
// reconstruction, exact accumulation and rounding in device/exact/, each element by the functions
// of exact/exact_element.hpp. Bit for bit exact_gemm's product: nearest, FP32, residual.
#pragma once
#include <string>

#include "common/matrix.hpp"
#include "exact/sliced_exact.hpp"

namespace ozref {

// Where gpu_exact's time went, in seconds (each phase's work finished before the next begins).
struct GpuExactPhases {
  double setup = 0;     // the host's analysis of the lines, the plan, the output's allocation
  double upload = 0;    // A and B to the GPU
  double residues = 0;  // the operands' residues
  double gemms = 0;     // the int8 GEMMs and the reduction of their sums
  double crt = 0;       // Garner's algorithm and the exact accumulation
  double round = 0;     // the rounding of every element
  double download = 0;  // the rounded elements to the host, stored as ExactProduct's (overlapped)
  double specials = 0;  // NaN and infinities, on the host
};

struct GpuExactProduct {
  SlicedProduct sliced;  // the product and its plan (plan.pairs summed over the panels)
  size_t panels = 0;     // bands of rows of C, one after another, each within the GPU's memory
  std::string device;    // "NVIDIA H200 (sm_90, 132 SMs)"
  std::string gemm = "cuBLASLt";  // the int8 GEMMs: wgmma (ozref's kernel, sm_90), cuBLASLt, or mma.sync (ozref's kernel) and why
  double gpu_seconds = 0;  // from the first upload to the last download
  GpuExactPhases phases;
};

// InputError saying why when no usable GPU is present (or ozref was built without CUDA).
GpuExactProduct gpu_exact(const Matrix<double>& a, const Matrix<double>& b);

}  // namespace ozref
