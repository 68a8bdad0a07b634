// Builders for the instruction families that several architectures share; each arch file states
// only what differs (its datapath parameters and its evidence).
#pragma once
#include <string>
#include <vector>

#include "mma/instruction.hpp"

namespace ozref::mma::build {

// mma.sync.aligned.m16n8k32.row.col{.satfinite}.s32.{s8,u8}.{s8,u8}.s32, all eight forms.
std::vector<InstructionSpec> int8_mma_sync(const std::string& evidence);
// tcgen05 kind::i8 (K = 32), s8 x s8 and u8 x u8, wrapping or saturating.
std::vector<InstructionSpec> int8_tcgen05(const std::string& evidence);
// mma.sync.aligned.m16n8k16.row.col.f32.{f16,bf16}.{f16,bf16}.f32.
std::vector<InstructionSpec> half_mma_sync(const FusedBlock& block, int parts, const std::string& evidence);
// mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}.f32 (same-type pairs).
std::vector<InstructionSpec> fp8_mma_sync(const FusedBlock& block, std::vector<std::vector<int>> blocks,
                                          bool convert_to_fp16, bool c_added_after,
                                          const std::string& evidence);
// wgmma.mma_async.sync.aligned.m64nNk32.f32.{e4m3,e5m2}.{e4m3,e5m2}.
std::vector<InstructionSpec> fp8_wgmma(const FusedBlock& block, const std::string& evidence);
// wgmma.mma_async.sync.aligned.m64nNk32.s32.{s8,u8}.{s8,u8}: exact sum, wrapped.
std::vector<InstructionSpec> int8_wgmma(const std::string& evidence);
// AMD CDNA3's FP16/BF16 MFMA (v_mfma_f32_<shape>_{f16,bf16}, K = 4, 8 or 16): K in consecutive
// groups of `group` (min(group, K); 0: one block), the default quiet NaN.
std::vector<InstructionSpec> mfma_half(const FusedBlock& block, int group, const std::string& evidence);
// Every instruction of every family with the ideal accumulator (exact sum, one RNE): the list of
// ideal.cpp, and the op strings the other architectures draw from.
FusedBlock ideal_block();

}  // namespace ozref::mma::build

namespace ozref::mma::build {

// FP8/FP6/FP4 operands in 8-bit containers, K = 32, one fused block (kind::f8f6f4); `op_for`
// makes the op string from the element type name ("e4m3", "e5m2", "e2m1").
template <typename OpFor>
std::vector<InstructionSpec> f8f6f4(OpFor op_for, const FusedBlock& block, const std::string& evidence) {
  std::vector<InstructionSpec> out;
  for (FormatId f : {FormatId::E4M3, FormatId::E5M2, FormatId::E2M1}) {
    InstructionSpec s;
    s.op = op_for(std::string(format_spec(f).name));
    s.k = 32;
    s.a_format = s.b_format = f;
    s.packing = f == FormatId::E2M1 ? Packing::PaddedFp4 : Packing::Byte;
    s.blocks = one_block(32);
    s.block = block;
    s.evidence = evidence;
    out.push_back(s);
  }
  return out;
}

// A block-scaled instruction: element format, K, packing, scale format and block, exact groups.
InstructionSpec block_scaled(const std::string& op, FormatId element, int k, Packing packing,
                             FormatId scale, int scale_block, int exact_group,
                             const FusedBlock& block, const std::string& evidence);

}  // namespace ozref::mma::build
