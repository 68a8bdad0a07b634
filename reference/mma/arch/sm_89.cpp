// sm_89 (Ada, L40S): published evidence only; ozref has recorded no Ada hardware.
// - INT8 and FP16/BF16 as sm_80 (MMA-Sim: Turing, Ampere and Ada share F = 24 and the 2x8 split).
// - FP8 m16n8k32 (e4m3, e5m2): two halves of 16 in sequence; each keeps F = 13 fraction bits after
//   alignment and its FP32 output only 13 fraction bits ("e8m13"), truncated (MMA-Sim nv_ptx.py:
//   Ada mma fp8 = 2x16, F = 13, f32_e8m13; Khattak & Mikaitis Ada: fp8 block 16, neab -10).
#include "mma/arch/arch_list.hpp"
#include "mma/arch/builders.hpp"

namespace ozref::mma {

ArchSpec make_sm_89() {
  ArchSpec a{"sm_89", "Ada: as sm_80, plus fp8 two blocks of 16 with F = 13 and e8m13 output (published models)", {}};
  const FusedBlock half{24, OutputRounding::TowardZero, 23, -126};
  const FusedBlock fp8{13, OutputRounding::TowardZero, 13, -126};
  auto add = [&](std::vector<InstructionSpec> v) { a.instructions.insert(a.instructions.end(), v.begin(), v.end()); };
  add(build::int8_mma_sync("PTX ISA: exact sum, wrap or .satfinite clamp (published, unrecorded)"));
  add(build::half_mma_sync(half, 2, "MMA-Sim (Ada 2x8 split, F = 24); Khattak & Mikaitis Ada"));
  add(build::fp8_mma_sync(fp8, consecutive_blocks(32, 2), false, false,
                          "MMA-Sim (Ada fp8 2x16, F = 13, e8m13); Khattak & Mikaitis Ada (fp8 block 16, neab -10)"));
  return a;
}

}  // namespace ozref::mma
