// One GEMM on the GPU through one named instruction (device/gemm/): the GPU side of the MMA-level
// lockstep. Operands and outputs are bit patterns in the layout of mma::gemm (A: m rows of k
// bytes, B: n columns of k bytes, D: m x n 32-bit patterns, row-major), K any length (the kernels
// pad it to 32 with zeros, as the model does). Built with CUDA; without it the list is empty and
// gpu_gemm says why.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ozref::mma {

// The op strings (as mma/op_names.hpp spells them) that ozref's GPU kernels issue.
std::vector<std::string> gpu_instructions();

// D of one GEMM on the GPU; InputError for an op not in gpu_instructions() or sizes that do not
// agree; std::runtime_error for a CUDA failure.
std::vector<uint32_t> gpu_gemm(const std::string& op, size_t m, size_t n, size_t k, std::span<const uint8_t> a,
                               std::span<const uint8_t> b_columns);

}  // namespace ozref::mma
