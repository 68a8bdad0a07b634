// cdna3 (AMD Instinct MI300): published evidence only; ozref has recorded no AMD hardware.
// - FP16/BF16 MFMA (v_mfma_f32_*_{f16,bf16}): K in consecutive groups of min(8, K) run in
//   sequence, each group's FP32 result the next one's C; in each group the products alone are
//   exact, aligned on their own largest exponent and truncated toward zero to 24 fraction bits,
//   summed; then that sum and C are aligned on the larger of their exponents, the sum floored to
//   31 fraction bits and C to 24, added, and rounded to FP32 nearest-even. Subnormal inputs are
//   kept. (MMA-Sim, microsoft/MMA-Sim: mmasim/simulator/amd.py, CDNA3 "fused_dot_add", group
//   size min(8, k), two-stage; functions.py, amd_fused_dot_add, n_fractional_bits = 24.)
// - Not modelled: the FP32 and XF32 forms (an FMA chain and TF32 operands in MMA-Sim), and the
//   FP8/BF8 forms (CDNA3's FNUZ encodings, which ozref's formats do not hold). NaN payloads are
//   not in the published model: ozref writes the default quiet NaN, 7fc00000.
#include "mma/arch/arch_list.hpp"
#include "mma/arch/builders.hpp"

namespace ozref::mma {

ArchSpec make_cdna3() {
  ArchSpec a{"cdna3", "AMD MI300: f16/bf16 MFMA, groups of 8, products F = 24 RZ, then C stage 31/24 floored, RNE (MMA-Sim)", {}};
  FusedBlock block{24, OutputRounding::NearestEven, 23, -126};
  block.c_stage_sum_bits = 31, block.c_stage_c_bits = 24;
  a.instructions = build::mfma_half(
      block, 8, "MMA-Sim CDNA3 (groups of min(8, K), products F = 24 toward zero, C stage: sum floored to 31 bits, C to 24, RNE)");
  return a;
}

}  // namespace ozref::mma
