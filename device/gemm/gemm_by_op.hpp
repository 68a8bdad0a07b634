// ozref's GEMM kernels chosen by the PTX instruction as the CPU model names it (mma/op_names.hpp):
// the mma.sync kernel (mma_sync_gemm.hpp), the wgmma kernel (wgmma_gemm.hpp) or the tcgen05 kernel
// (tcgen05_gemm.hpp), on device pointers:
// C (m x n, 32-bit patterns, row-major) = A (m x k bytes) B (n columns of k bytes).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ozref::device {

// Whether a kernel of ozref issues op on this GPU (wgmma: sm_90 only; FP4 mma.sync: sm_120 only;
// tcgen05: sm_100 only).
bool kernel_issues(const std::string& op);
// InputError for an op no kernel issues on this GPU.
void gemm_by_op(const std::string& op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c);

}  // namespace ozref::device
