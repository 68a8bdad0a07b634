// sm_100 (B200) tcgen05.mma: published evidence only; ozref has no Blackwell hardware.
// tcgen05 carries the operand types in its instruction descriptor, not in the op string; ozref
// names each form "tcgen05.mma.cta_group::1.kind::<kind>[.block_scale.scale_vec::<n>X][.<types>]".
// - kind::f8f6f4 (e4m3, e5m2, e2m1 in 8-bit containers, e2m1 in bits 5:2), K = 32: one block,
//   F = 25, FP32 round toward zero (MMA-Sim; DeepGEMM issue #176 measured 25 bits on B200).
// - kind::mxf8f6f4: as f8f6f4 with one UE8M0 scale per 32 elements added to each product's
//   exponent (MMA-Sim).
// - kind::mxf4 (packed e2m1 pairs, K = 64, UE8M0 per 32) and kind::mxf4nvf4 (UE8M0 per 32 or 16, or
//   UE4M3 per 16): each group of 16 products summed exactly, multiplied by the scales, aligned on
//   the scale exponents, all groups and C fused with F = 35, round toward zero (MMA-Sim; DeepGEMM
//   #176 could only bound the width between 34 and 37 bits). A group whose products sum to zero
//   still raises the alignment exponent to its scale exponents (MMA-Sim; unmeasured: the variant
//   sm_100+zero-groups-ignored is the other reading, `ozref probe --arch sm_100` decides).
// - kind::i8 (K = 32): exact sum, wrapped, or clamped when the descriptor's saturate bit is set.
#include "mma/arch/arch_list.hpp"
#include "mma/arch/builders.hpp"
#include "mma/op_names.hpp"

namespace ozref::mma {

ArchSpec make_sm_100() {
  ArchSpec a{"sm_100", "Blackwell tcgen05: f8f6f4 F = 25; mxf4/mxf4nvf4 exact groups of 16, F = 35; RZ (published models)", {}};
  const FusedBlock f25{25, OutputRounding::TowardZero, 23, -126};
  const FusedBlock f35{35, OutputRounding::TowardZero, 23, -126};
  auto add = [&](std::vector<InstructionSpec> v) { a.instructions.insert(a.instructions.end(), v.begin(), v.end()); };
  add(build::f8f6f4(op_name::tcgen05_f8f6f4, f25,
                    "MMA-Sim (Blackwell f8f6f4 F = 25); DeepGEMM #176 (25 bits on B200)"));
  for (FormatId f : {FormatId::E4M3, FormatId::E5M2, FormatId::E2M1}) {
    const std::string t(format_spec(f).name);
    a.instructions.push_back(build::block_scaled(op_name::tcgen05("mxf8f6f4", "block_scale.scale_vec::1X." + t + "." + t), f, 32,
                                                 f == FormatId::E2M1 ? Packing::PaddedFp4 : Packing::Byte,
                                                 FormatId::UE8M0, 32, 0, f25, "MMA-Sim (mxf8f6f4: F = 25, scale exponents added)"));
  }
  const std::string why4 = "MMA-Sim (mxf4/mxf4nvf4: exact groups of 16, F = 35); DeepGEMM #176 (34-37 bits)";
  a.instructions.push_back(build::block_scaled(op_name::tcgen05("mxf4", "block_scale.scale_vec::2X"), FormatId::E2M1, 64, Packing::PackedFp4, FormatId::UE8M0, 32, 16, f35, why4));
  a.instructions.push_back(build::block_scaled(op_name::tcgen05("mxf4nvf4", "block_scale.scale_vec::2X"), FormatId::E2M1, 64, Packing::PackedFp4, FormatId::UE8M0, 32, 16, f35, why4));
  a.instructions.push_back(build::block_scaled(op_name::tcgen05("mxf4nvf4", "block_scale.scale_vec::4X.ue8m0"), FormatId::E2M1, 64, Packing::PackedFp4, FormatId::UE8M0, 16, 16, f35, why4));
  a.instructions.push_back(build::block_scaled(op_name::tcgen05("mxf4nvf4", "block_scale.scale_vec::4X.ue4m3"), FormatId::E2M1, 64, Packing::PackedFp4, FormatId::UE4M3, 16, 16, f35, why4));
  add(build::int8_tcgen05("PTX ISA: tcgen05 kind::i8, descriptor bit 3 saturates (published, unrecorded)"));
  return a;
}

}  // namespace ozref::mma
