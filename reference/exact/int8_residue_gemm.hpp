// The residues of an exact integer product modulo moduli P = m_1 m_2 m_3 built from pairwise
// coprime moduli m up to 256, by one int8 GEMM per m (AVX-512 VNNI where the CPU has it).
//
// Modulo m each operand is replaced by its balanced residue in [-128, 127] (formed from its 24-bit
// limbs through its residue modulo the group's P), so every product is at
// most 2^14 in magnitude and a sum of K of them, K < 2^17, is below 2^31: the int8 GEMM's int32
// result is exact. It is reduced modulo m and the residues modulo the m of a group are joined into
// one modulo their product P (below 2^24) by the Chinese remainder theorem, ready for Garner's
// algorithm in crt_gemm. An int8 GEMM runs about 8 times as fast as a DGEMM on this CPU and gives
// about 8 bits of the result against a DGEMM prime's 22.5 (docs/exact.md).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "exact/crt_gemm.hpp"
#include "exact/modular.hpp"

namespace ozref {

constexpr size_t kInt8MaxDepth = (size_t{1} << 17) - 1;  // K 2^14 < 2^31
constexpr int kInt8MaxShift = 355;  // operands below 2^408: 17 limbs of 24 bits

// Pairwise coprime moduli from 256 down, each the largest coprime to those before it.
const std::vector<uint32_t>& int8_moduli();

// The operands' int8 residues modulo every m of every group: a[g][t] (m x k) for small[g][t], the
// rows of A, and b[g][t] (n x k), the columns of B. Formed before the GEMMs, so that the scaled
// operands can be released first.
struct Int8Operands {
  size_t m = 0, n = 0, k = 0;
  std::vector<std::vector<std::unique_ptr<int8_t[]>>> a, b;
};
// b_transposed holds B's columns as rows; no shift of either is beyond kInt8MaxShift.
Int8Operands int8_operands(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b_transposed,
                           const std::vector<Modulus>& groups, const std::vector<std::vector<uint32_t>>& small);

// residues[g * m * n + idx] = (a b)[idx] mod groups[g].p in [0, p), where groups[g].p is the
// product of small[g] (one to three of int8_moduli()).
void int8_residue_gemm(const Int8Operands& operands, const std::vector<Modulus>& groups,
                       const std::vector<std::vector<uint32_t>>& small, int32_t* residues);

}  // namespace ozref
