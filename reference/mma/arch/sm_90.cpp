// sm_90 (H100, H200), as the SASS that nvcc 13.0 emits for -arch=sm_90 runs it. Evidence:
// recorded H200 traces replayed in ctest (tests/data/traces) and the H200 measurements of
// docs/models.md.
// - INT8 m16n8k32 (IMMA.16832.S8.S8[.SAT]): exact sum, wrapped, or clamped with .satfinite.
// - FP16/BF16 m16n8k16 (HMMA.16816.F32): one block of 16; products exact with exponent ea + eb;
//   products and C aligned on the largest exponent; each truncated to F = 25 fraction bits; summed
//   exactly; FP32 round toward zero (MMA-Sim: Hopper F = 25, whole K fused). Below 2^-126 (BF16
//   only): the alignment exponent is at least -133, a zero C left out (Khattak & Mikaitis, H100),
//   and a sum that rounds to zero gives +0; H100 bf16 sweep, 60,000 records
//   (tests/data/traces/h100-bf16-subnormal).
// - FP8 mma.sync m16n8k32 (e4m3, e5m2): not an FP8 datapath on sm_90. nvcc converts each operand
//   exactly to FP16 (F2FP.F16.E4M3.UNPACK_B) and issues two HMMA.16816.F32: the first sums the 16
//   products with k mod 4 in {0, 1} on a zero accumulator, the second those with k mod 4 in {2, 3}
//   on the first's result; four FADDs then add the user's C, rounded to nearest-even.
// - INT8 wgmma m64nNk32 (IGMMA): exact sum, wrapped, as IMMA (the MMA-level lockstep on the H200).
// - FP8 wgmma m64nNk32 (QGMMA): one block of 32, F = 13, the FP32 output keeping 13 fraction bits,
//   truncated (DeepSeek-V3 report section 3.5.2; Khattak & Mikaitis H100 fp8 neab -10; MMA-Sim).
#include "mma/arch/arch_list.hpp"
#include "mma/arch/builders.hpp"

namespace ozref::mma {
namespace {
std::vector<std::vector<int>> hmma_pair_split() {
  std::vector<std::vector<int>> blocks(2);
  for (int k = 0; k < 32; ++k) blocks[(k % 4) / 2].push_back(k);
  return blocks;
}
}  // namespace

ArchSpec make_sm_90() {
  ArchSpec a{"sm_90", "Hopper: int8 exact; f16/bf16 F = 25 RZ; fp8 mma.sync as two FP16 HMMAs + FADD; fp8 wgmma F = 13, e8m13", {}};
  FusedBlock hmma{25, OutputRounding::TowardZero, 23, -133};
  hmma.zero_result_positive = true;
  const FusedBlock qgmma{13, OutputRounding::TowardZero, 13, -126};
  auto add = [&](std::vector<InstructionSpec> v) { a.instructions.insert(a.instructions.end(), v.begin(), v.end()); };
  add(build::int8_mma_sync("H200 traces (IMMA.16832.S8.S8[.SAT])"));
  add(build::half_mma_sync(hmma, 1, "H200 traces (HMMA.16816.F32); MMA-Sim Hopper F = 25; below 2^-126: Khattak & Mikaitis H100 floor -133, H100 bf16 sweep (+0 for sums that round to zero)"));
  add(build::fp8_mma_sync(hmma, hmma_pair_split(), true, true,
                          "H200 traces and SASS (F2FP.F16.E4M3.UNPACK_B, 2x HMMA.16816.F32, 4x FADD)"));
  add(build::fp8_wgmma(qgmma, "H200 traces (QGMMA); DeepSeek-V3 3.5.2; Khattak & Mikaitis H100 fp8"));
  add(build::int8_wgmma("PTX ISA: exact sum, wrapping; H200 MMA-level lockstep (IGMMA, docs/gpu.md)"));
  return a;
}

}  // namespace ozref::mma
