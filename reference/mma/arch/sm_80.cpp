// sm_80 (A100): published evidence only; ozref has recorded no A100 hardware.
// - INT8 m16n8k32: exact sum, wrapped, or clamped with .satfinite (PTX ISA, mma integer semantics).
// - FP16/BF16 m16n8k16: K split into two halves of 8 run in sequence, the first half's result the
//   second's C (MMA-Sim nv_ptx.py, Ampere); in each, products exact, aligned with C on the largest
//   exponent, truncated to F = 24 fraction bits, summed exactly, normalised, FP32 round toward zero
//   (Fasi et al. 2021 and Khattak & Mikaitis' A100 model: neab = 1, block 8, rz).
#include "mma/arch/arch_list.hpp"
#include "mma/arch/builders.hpp"

namespace ozref::mma {

ArchSpec make_sm_80() {
  ArchSpec a{"sm_80", "A100: int8 exact; f16/bf16 two blocks of 8, F = 24, RZ (published models)", {}};
  const FusedBlock block{24, OutputRounding::TowardZero, 23, -126};
  auto add = [&](std::vector<InstructionSpec> v) { a.instructions.insert(a.instructions.end(), v.begin(), v.end()); };
  add(build::int8_mma_sync("PTX ISA: exact sum, wrap or .satfinite clamp (published, unrecorded)"));
  add(build::half_mma_sync(block, 2, "MMA-Sim (Ampere 2x8 split, F = 24); Khattak & Mikaitis A100 (block 8, neab 1, rz)"));
  return a;
}

}  // namespace ozref::mma
