// The CPU library's balanced residues of INT32 sums, for bench_gpu_pipeline's check of the batched
// fused GEMM (its CUDA code is C++17; the library's headers are C++20, so the call lives here).
#pragma once
#include <cstdint>
#include <vector>

namespace ozref::bench {

// balanced_residue(sums[v], modulus) for every v (reference/schemes/common/residue.hpp).
std::vector<int16_t> balanced_residues_of(const std::vector<int32_t>& sums, int64_t modulus);

}  // namespace ozref::bench
