// sm_120 (RTX PRO 6000 Blackwell, GeForce Blackwell) mma.sync: published evidence only.
// - kind::f8f6f4 m16n8k32 (e4m3, e5m2, e2m1 in 8-bit containers): one 32-term block, F = 25,
//   round toward zero (MMA-Sim nv_ptx.py, sm_120).
// - kind::mxf8f6f4 m16n8k32 with UE8M0 per 32 (scale_vec::1X): F = 25 with the scale exponents
//   added (MMA-Sim).
// - kind::mxf4 m16n8k64 (UE8M0 per 32) and kind::mxf4nvf4 m16n8k64 (UE8M0 per 32 or UE4M3 per 16):
//   exact groups of 16, F = 35, round toward zero (MMA-Sim); a group whose products sum to zero
//   still raises the alignment exponent to its scale exponents (MMA-Sim; unmeasured: the variant
//   sm_120+zero-groups-ignored is the other reading, `ozref probe --arch sm_120` decides).
// - INT8 m16n8k32 as PTX specifies.
#include "mma/arch/arch_list.hpp"
#include "mma/arch/builders.hpp"
#include "mma/op_names.hpp"

namespace ozref::mma {

ArchSpec make_sm_120() {
  ArchSpec a{"sm_120", "Blackwell mma.sync: kind::f8f6f4 F = 25; mxf4/mxf4nvf4 F = 35; RZ (published models)", {}};
  const FusedBlock f25{25, OutputRounding::TowardZero, 23, -126};
  const FusedBlock f35{35, OutputRounding::TowardZero, 23, -126};
  auto add = [&](std::vector<InstructionSpec> v) { a.instructions.insert(a.instructions.end(), v.begin(), v.end()); };
  add(build::int8_mma_sync("PTX ISA: exact sum, wrap or .satfinite clamp (published, unrecorded)"));
  add(build::f8f6f4(op_name::mma_sync_f8f6f4, f25,
                    "MMA-Sim (sm_120 kind::f8f6f4: one 32-term sum, F = 25)"));
  for (FormatId f : {FormatId::E4M3, FormatId::E5M2, FormatId::E2M1}) {
    const std::string t(format_spec(f).name);
    a.instructions.push_back(build::block_scaled(op_name::mma_sync_block_scaled("m16n8k32", "mxf8f6f4", "1X", t, "ue8m0"),
                                                 f, 32, f == FormatId::E2M1 ? Packing::PaddedFp4 : Packing::Byte,
                                                 FormatId::UE8M0, 32, 0, f25, "MMA-Sim (mxf8f6f4: F = 25)"));
  }
  const std::string why4 = "MMA-Sim (sm_120 mxf4/mxf4nvf4: exact groups of 16, F = 35)";
  a.instructions.push_back(build::block_scaled(op_name::mma_sync_block_scaled("m16n8k64", "mxf4", "2X", "e2m1", "ue8m0"), FormatId::E2M1, 64, Packing::PackedFp4, FormatId::UE8M0, 32, 16, f35, why4));
  a.instructions.push_back(build::block_scaled(op_name::mma_sync_block_scaled("m16n8k64", "mxf4nvf4", "2X", "e2m1", "ue8m0"), FormatId::E2M1, 64, Packing::PackedFp4, FormatId::UE8M0, 32, 16, f35, why4));
  a.instructions.push_back(build::block_scaled(op_name::mma_sync_block_scaled("m16n8k64", "mxf4nvf4", "4X", "e2m1", "ue4m3"), FormatId::E2M1, 64, Packing::PackedFp4, FormatId::UE4M3, 16, 16, f35, why4));
  return a;
}

}  // namespace ozref::mma
