#include "schemes/cublas_fixedpoint/setup.hpp"

#include "schemes/cublas_fixedpoint/kblock.hpp"
#include "schemes/cublas_fixedpoint/scheme.hpp"

namespace ozref::schemes::cublas_fixedpoint {

Setup::Setup(int bits_, size_t kblock, size_t rows, size_t cols, size_t depth)
    : requested(bits_),
      p(static_cast<size_t>(bits_ + 8) / 8),
      bits(8 * static_cast<int>(p) - 1),
      m(rows),
      n(cols),
      k(depth),
      kb(std::min(kblock ? kblock : kblock_size(rows, cols, depth), std::max<size_t>(depth, 1))),
      blocks((depth + kb - 1) / kb),
      gemm(scheme_int8_instruction("sm_90", true, true, kCublasFixedpointScheme), LowpFormat::Int8) {}

}  // namespace ozref::schemes::cublas_fixedpoint
