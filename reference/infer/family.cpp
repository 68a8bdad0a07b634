#include "infer/family.hpp"

#include <bit>
#include <iterator>

#include "common/error.hpp"
#include "formats/format.hpp"

namespace ozref::infer {
namespace {

using mma::FusedBlock;
using mma::InstructionSpec;
using mma::OutputRounding;

constexpr int kFewestFractionBits = 8, kMostFractionBits = 40;

// The alignment exponent's floor (FusedBlock::exponent_floor): MMA-Sim's -126 (a zero C counts as
// 2^-126), and Khattak and Mikaitis's -132 (A100, Ada) and -133 (H100, B200), a zero C ignored.
// With each, the sign of a sum that rounds to zero (FusedBlock::zero_result_positive): IEEE's
// (MMA-Sim) or +0 (the H100's bf16 HMMA, docs/models.md). Both show only below 2^-126
// (mma::floor_observable).
constexpr int kExponentFloors[] = {-126, -132, -133};

// Schedules: K in consecutive fused groups of K, K/2, K/4 or K/8 (at least 4 products each), and
// sm_90's FP8 split (k mod 4 in {0, 1}, then {2, 3}).
std::vector<std::vector<std::vector<int>>> schedules(int k) {
  std::vector<std::vector<std::vector<int>>> out;
  for (int parts = 1; parts <= 8 && k / parts >= 4 && k % parts == 0; parts *= 2) out.push_back(mma::consecutive_blocks(k, parts));
  if (k % 4 == 0 && k >= 8) {
    std::vector<std::vector<int>> pairs(2);
    for (int i = 0; i < k; ++i) pairs[(i % 4) / 2].push_back(i);
    out.push_back(pairs);
  }
  return out;
}

// Whether a block's truncated sum always fits FP32 exactly, so that its output rounding cannot be
// observed: each aligned term is below 2^(E + 2), so n terms and C need F + 2 + ceil(log2(n + 1))
// bits, and the last kept bit 2^(E - F) is no finer than FP32's 2^-149 when F <= 23.
bool rounding_unobservable(int fraction_bits, size_t terms) {
  return fraction_bits != FusedBlock::kExact && fraction_bits <= 23 &&
         fraction_bits + 2 + std::bit_width(terms) <= 24;
}

// The blocks: F exact or 8..40 bits; RZ or RNE; an FP32 output or one keeping only F fraction bits.
std::vector<FusedBlock> blocks(size_t terms_per_block, bool rounding_matters) {
  std::vector<FusedBlock> out;
  for (int f = FusedBlock::kExact; f <= kMostFractionBits; ++f) {
    if (f != FusedBlock::kExact && f < kFewestFractionBits) continue;
    for (OutputRounding r : {OutputRounding::TowardZero, OutputRounding::NearestEven}) {
      if (r == OutputRounding::NearestEven && rounding_matters && rounding_unobservable(f, terms_per_block)) continue;
      out.push_back(FusedBlock{f, r, 23, -126});
      if (f != FusedBlock::kExact && f < 23) out.push_back(FusedBlock{f, r, f, -126});
    }
  }
  return out;
}

// AMD CDNA3's separate C stage (FusedBlock::c_stage_sum_bits): the products' sum floored to 31
// fraction bits and C to 24 on the larger exponent (MMA-Sim, amd_fused_dot_add). It has no floor
// (the products align on their own maximum), no FP16 conversion and no trailing FP32 add.
void add_c_stage_members(const InstructionSpec& base, const std::vector<std::vector<int>>& schedule, const FusedBlock& block,
                         std::vector<InstructionSpec>& out) {
  if (block.fraction_bits == FusedBlock::kExact) return;
  InstructionSpec s = base;
  s.blocks = schedule, s.block = block, s.c_added_after = false, s.convert_to_fp16 = false;
  s.block.c_stage_sum_bits = 31, s.block.c_stage_c_bits = 24;
  out.push_back(s);
}

std::vector<InstructionSpec> float_family(const InstructionSpec& base) {
  std::vector<InstructionSpec> out;
  const bool narrow = format_spec(base.a_format).bits <= 8 && format_spec(base.b_format).bits <= 8;
  const bool below_126 = mma::floor_observable(base.a_format, base.b_format);
  const size_t floors = below_126 ? std::size(kExponentFloors) : 1;
  for (const auto& schedule : schedules(base.k)) {
    for (const FusedBlock& block : blocks(schedule.front().size(), true))
      for (size_t floor = 0; floor < floors; ++floor)
        for (bool zero_positive : {false, true}) {
          if (zero_positive && !below_126) continue;
          for (bool c_after : {false, true})
            for (bool to_fp16 : {false, true}) {
              if (to_fp16 && !narrow) continue;  // only FP8/FP4 convert to FP16 exactly
              InstructionSpec s = base;
              s.blocks = schedule, s.block = block, s.c_added_after = c_after, s.convert_to_fp16 = to_fp16;
              s.block.exponent_floor = kExponentFloors[floor], s.block.zero_result_positive = zero_positive;
              out.push_back(s);
            }
        }
    // The C stage's rounding is always observable (its sum keeps 31 bits): every block, unpruned.
    for (const FusedBlock& block : blocks(schedule.front().size(), false)) add_c_stage_members(base, schedule, block, out);
  }
  return out;
}

std::vector<InstructionSpec> block_scaled_family(const InstructionSpec& base) {
  std::vector<InstructionSpec> out;
  // Group terms can exceed a product's range by the group's sum, so every rounding is kept.
  for (const FusedBlock& block : blocks(static_cast<size_t>(base.k), false))
    for (int group : {0, 8, 16, 32}) {
      if (group && (group > base.scale_block || base.scale_block % group)) continue;
      for (bool zero_aligns : {true, false}) {
        if (!group && !zero_aligns) continue;  // only exact groups can sum to zero
        InstructionSpec s = base;
        s.blocks = mma::one_block(base.k), s.block = block, s.exact_group = group, s.zero_group_aligns = zero_aligns;
        s.c_added_after = false, s.convert_to_fp16 = false;
        out.push_back(s);
      }
    }
  return out;
}

std::string schedule_text(const std::vector<std::vector<int>>& blocks, int k) {
  for (int parts = 1; parts <= k; ++parts)
    if (k % parts == 0 && blocks == mma::consecutive_blocks(k, parts)) return std::to_string(parts) + " x " + std::to_string(k / parts) + " consecutive";
  std::string text;
  for (const auto& b : blocks) {
    text += text.empty() ? "[" : " | ";
    for (size_t i = 0; i < b.size(); ++i) text += (i ? "," : "") + std::to_string(b[i]);
  }
  return text + "]";
}

}  // namespace

std::vector<InstructionSpec> family(const InstructionSpec& interface) {
  InstructionSpec base = interface;
  base.evidence.clear();
  switch (base.kind) {
    case mma::Kind::Integer: {
      InstructionSpec wrap = base, clamp = base;
      wrap.saturate = false, clamp.saturate = true;
      return {wrap, clamp};
    }
    case mma::Kind::Float: return float_family(base);
    case mma::Kind::BlockScaled: return block_scaled_family(base);
  }
  return {};
}

Dimensions dimensions(const InstructionSpec& s) {
  if (s.kind == mma::Kind::Integer) return {{"saturate", s.saturate ? "clamp" : "wrap"}};
  Dimensions d;
  if (s.kind == mma::Kind::Float) d.push_back({"schedule", schedule_text(s.blocks, s.k)});
  d.push_back({"fraction_bits", s.block.fraction_bits == FusedBlock::kExact ? "exact" : std::to_string(s.block.fraction_bits)});
  d.push_back({"rounding", s.block.rounding == OutputRounding::TowardZero ? "toward_zero" : "nearest_even"});
  d.push_back({"output_fraction_bits", std::to_string(s.block.output_fraction_bits)});
  d.push_back({"exponent_floor", std::to_string(s.block.exponent_floor)});
  d.push_back({"zero_result_positive", s.block.zero_result_positive ? "true" : "false"});
  if (s.kind == mma::Kind::Float) {
    d.push_back({"c_stage", s.block.c_stage_sum_bits ? "sum " + std::to_string(s.block.c_stage_sum_bits) + " bits, C " +
                                                           std::to_string(s.block.c_stage_c_bits) + " bits, floored" : "none"});
    d.push_back({"c_added_after", s.c_added_after ? "true" : "false"});
    d.push_back({"convert_to_fp16", s.convert_to_fp16 ? "true" : "false"});
  } else {
    d.push_back({"exact_group", std::to_string(s.exact_group)});
    d.push_back({"zero_group_aligns", s.zero_group_aligns ? "true" : "false"});
  }
  return d;
}

mma::InstructionSpec interface_of(const std::string& op, const std::string& like) {
  if (!like.empty()) return mma::instruction(mma::arch(like), op);
  for (const std::string& name : mma::arch_names())
    for (const InstructionSpec& s : mma::arch(name).instructions)
      if (s.op == op) return s;
  throw InputError("no built-in spec models the op '" + op + "' (give --like SPEC.json with an instruction of that op for its operand formats and K)");
}

}  // namespace ozref::infer
