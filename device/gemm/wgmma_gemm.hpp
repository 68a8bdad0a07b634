// ozref's GEMM kernel on wgmma.mma_async m64nNk32 with 8-bit operands (sm_90a): C (m x n, row-major)
// = A (m x k, row-major) B with B held by columns (n x k), one byte per element. Each output is
// one chain of instructions along K from zero, K in steps of 32 and no step past K padded to 32,
// as the CPU model runs the instruction: INT8 outputs are the INT32 sums (wrapping as the
// instruction does), FP8 outputs the H200's FP32 accumulation of that chain.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ozref::device {

enum class WgmmaOp { S8S8, S8U8, U8S8, U8U8, E4M3, E5M2 };

// The 32-bit outputs (INT32 or FP32 bit patterns) into c (m x n).
void wgmma_gemm(WgmmaOp op, size_t m, size_t n, size_t k, const uint8_t* a, const uint8_t* b_columns, uint32_t* c);

// s8.s8 with the reduce stage fused into the epilogue: each INT32 output's balanced residue
// modulo its plane's modulus (the reduce stage's Barrett step), as int16. One launch for a batch
// of planes of one shape (an emulated GEMM's residue planes): plane p of A (rows p m .. p m + m - 1
// of the stacked planes, m x k each) times B's plane p (n x k) into residues + p m n, reduced
// modulo plane_moduli[p]; the grid's last, partly idle wave is then shared by the whole batch.
constexpr size_t kMaxReducedPlanes = 64;
void wgmma_gemm_reduced(size_t m, size_t n, size_t k, const int8_t* a, const int8_t* b_columns, const std::vector<int64_t>& plane_moduli,
                        int16_t* residues);

}  // namespace ozref::device
