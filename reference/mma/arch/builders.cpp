#include "mma/arch/builders.hpp"

#include "mma/op_names.hpp"

namespace ozref::mma::build {
namespace {
std::string type_name(FormatId f) { return std::string(format_spec(f).name); }
}  // namespace

std::vector<InstructionSpec> int8_mma_sync(const std::string& evidence) {
  std::vector<InstructionSpec> out;
  for (bool sat : {false, true})
    for (bool as : {true, false})
      for (bool bs : {true, false}) {
        InstructionSpec s;
        s.op = op_name::mma_sync_int8(as, bs, sat);
        s.kind = Kind::Integer;
        s.k = 32;
        s.a_signed = as;
        s.b_signed = bs;
        s.saturate = sat;
        s.evidence = evidence;
        out.push_back(s);
      }
  return out;
}

std::vector<InstructionSpec> int8_wgmma(const std::string& evidence) {
  std::vector<InstructionSpec> out;
  for (bool as : {true, false})
    for (bool bs : {true, false}) {
      InstructionSpec s;
      s.op = op_name::wgmma_int8(as, bs);
      s.kind = Kind::Integer;
      s.k = 32;
      s.a_signed = as;
      s.b_signed = bs;
      s.evidence = evidence;
      out.push_back(s);
    }
  return out;
}

std::vector<InstructionSpec> int8_tcgen05(const std::string& evidence) {
  std::vector<InstructionSpec> out;
  for (bool sat : {false, true})
    for (bool sgn : {true, false}) {
      InstructionSpec s;
      s.op = op_name::tcgen05_i8(sgn, sgn, sat);
      s.kind = Kind::Integer;
      s.k = 32;
      s.a_signed = s.b_signed = sgn;
      s.saturate = sat;
      s.evidence = evidence;
      out.push_back(s);
    }
  return out;
}

std::vector<InstructionSpec> half_mma_sync(const FusedBlock& block, int parts, const std::string& evidence) {
  std::vector<InstructionSpec> out;
  for (FormatId f : {FormatId::FP16, FormatId::BF16}) {
    InstructionSpec s;
    s.op = op_name::mma_sync_half(f == FormatId::FP16 ? "f16" : "bf16");  // PTX's names, not ozref's format names
    s.k = 16;
    s.a_format = s.b_format = f;
    s.packing = Packing::Half;
    s.blocks = consecutive_blocks(16, parts);
    s.block = block;
    s.evidence = evidence;
    out.push_back(s);
  }
  return out;
}

std::vector<InstructionSpec> mfma_half(const FusedBlock& block, int group, const std::string& evidence) {
  std::vector<InstructionSpec> out;
  const std::pair<const char*, int> shapes[] = {{"32x32x8", 8}, {"16x16x16", 16}, {"32x32x4_2b", 4}, {"16x16x4_4b", 4}, {"4x4x4_16b", 4}};
  for (FormatId f : {FormatId::FP16, FormatId::BF16})
    for (const auto& [shape, k] : shapes) {
      InstructionSpec s;
      s.op = op_name::mfma(shape, f == FormatId::FP16 ? "f16" : "bf16");
      s.k = k;
      s.a_format = s.b_format = f;
      s.packing = Packing::Half;
      s.blocks = consecutive_blocks(k, group && k > group ? k / group : 1);
      s.block = block;
      s.nan_bits = 0x7FC00000;
      s.evidence = evidence;
      out.push_back(s);
    }
  return out;
}

std::vector<InstructionSpec> fp8_mma_sync(const FusedBlock& block, std::vector<std::vector<int>> blocks,
                                          bool convert_to_fp16, bool c_added_after,
                                          const std::string& evidence) {
  std::vector<InstructionSpec> out;
  for (FormatId f : {FormatId::E4M3, FormatId::E5M2}) {
    InstructionSpec s;
    s.op = op_name::mma_sync_fp8(type_name(f));
    s.k = 32;
    s.a_format = s.b_format = f;
    s.blocks = blocks;
    s.block = block;
    s.convert_to_fp16 = convert_to_fp16;
    s.c_added_after = c_added_after;
    s.evidence = evidence;
    out.push_back(s);
  }
  return out;
}

std::vector<InstructionSpec> fp8_wgmma(const FusedBlock& block, const std::string& evidence) {
  std::vector<InstructionSpec> out;
  for (FormatId f : {FormatId::E4M3, FormatId::E5M2}) {
    InstructionSpec s;
    s.op = op_name::wgmma_fp8(type_name(f));
    s.k = 32;
    s.a_format = s.b_format = f;
    s.blocks = one_block(32);
    s.block = block;
    s.evidence = evidence;
    out.push_back(s);
  }
  return out;
}

FusedBlock ideal_block() { return FusedBlock{}; }

}  // namespace ozref::mma::build

namespace ozref::mma::build {

InstructionSpec block_scaled(const std::string& op, FormatId element, int k, Packing packing,
                             FormatId scale, int scale_block, int exact_group,
                             const FusedBlock& block, const std::string& evidence) {
  InstructionSpec s;
  s.op = op;
  s.kind = Kind::BlockScaled;
  s.k = k;
  s.a_format = s.b_format = element;
  s.packing = packing;
  s.scale_format = scale;
  s.scale_block = scale_block;
  s.exact_group = exact_group;
  s.blocks = one_block(k);
  s.block = block;
  s.evidence = evidence;
  return s;
}

}  // namespace ozref::mma::build
