// What a low-precision GEMM takes as operands: the values it admits (a trace's arrays are held to
// them), and one output element's operands for a GEMM reproducer.
#pragma once
#include <cstddef>
#include <optional>

#include "schemes/common/lowp_gemm.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes {

// The values with an exact encoding in the GEMM's format (nullopt for INT8, which takes every byte).
std::optional<AdmittedValues> encodable(const LowpGemm& g);

// One output element's operands for a GEMM reproducer: `k` values of A's row and of B's column
// (with their strides), encoded as the instruction takes them.
template <typename T>
GemmElement gemm_operands(const LowpGemm& g, const T* a, size_t a_stride, const T* b, size_t b_stride, size_t k) {
  return {g.spec().op, g.encode_line(a, a_stride, k), g.encode_line(b, b_stride, k), 0};
}

}  // namespace ozref::schemes
