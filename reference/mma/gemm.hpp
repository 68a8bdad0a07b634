// The GEMM driver: an M x N x K product run the way a kernel issues one instruction: K in steps of
// the instruction's K, each step's D the next step's C. OpenMP-parallel over output rows. Fast
// paths are used only where they are equal to that chain by construction (tests check them
// against the general path): integer MMAs with wrapping accumulation for any K, and with
// .satfinite when no partial sum can leave the int32 range; FP MMAs on integer data inside the
// accumulators' exact bound (exact_regime.hpp); and the vectorised general path of the FP8/FP4
// instructions on any data (fp_block_gemm.hpp).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "mma/execute.hpp"
#include "mma/instruction.hpp"

namespace ozref::mma {

struct GemmOperands {
  size_t m = 0, n = 0, k = 0;          // k in elements, a multiple of the instruction's K
  std::span<const uint8_t> a;          // m rows, each operand_bytes(k) bytes (the trace layout)
  std::span<const uint8_t> b;          // n columns, each operand_bytes(k) bytes
  std::span<const uint8_t> scale_a;    // block-scaled kinds: m rows of k / scale_block bytes
  std::span<const uint8_t> scale_b;    // n columns of k / scale_block bytes
  std::span<const uint32_t> c;         // m x n initial accumulator (empty: +0 / 0)
};

struct GemmOptions {
  int threads = 0;
  bool allow_fast_path = true;
};

// D (m x n, row-major bit patterns). InputError when sizes do not fit the instruction.
std::vector<uint32_t> gemm(const InstructionSpec& spec, const GemmOperands& x, const GemmOptions& options = {});
// The same into caller memory (m x n elements, pre-filled with a canary here), for callers that
// run many GEMMs: a fresh multi-megabyte result costs first-touch page faults comparable to the
// GEMM itself (docs/results.md).
void gemm_into(const InstructionSpec& spec, const GemmOperands& x, std::span<uint32_t> d, const GemmOptions& options = {});

// The operands of instruction step `step` of output (i, j), with `c` as its accumulator.
ElementOperands step_operands(const InstructionSpec& spec, const GemmOperands& x, size_t i, size_t j, size_t step, uint32_t c);

// Whether gemm() would take a fast path for these operands (for reports and tests).
bool fast_path_applies(const InstructionSpec& spec, const GemmOperands& x);

}  // namespace ozref::mma
