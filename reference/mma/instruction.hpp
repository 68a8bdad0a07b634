// What one tensor-core instruction does, as a data description: operand formats, K, how the K
// products are grouped into fused blocks and chained, the datapath parameters of each block, and
// any instruction sequence the compiler really emits (docs/architecture.md, principle 2). Each architecture's
// list lives in its own file under mma/arch/, with the evidence for every parameter.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "formats/format.hpp"

namespace ozref::mma {

enum class OutputRounding { TowardZero, NearestEven };

// The NaN NVIDIA's recorded hardware writes (and its FP32 FADD): an instruction's default.
constexpr uint32_t kCanonicalNaN = 0x7FFFFFFF;

// One fused dot-add block: all its products (exact, with exponent ea + eb, not renormalised) and
// its accumulator are aligned to the largest exponent, each term is truncated toward zero to
// `fraction_bits` bits below it, the terms are summed exactly, and the sum is normalised once and
// rounded to an FP32 container with `output_fraction_bits` fraction bits.
struct FusedBlock {
  static constexpr int kExact = -1;  // fraction_bits: no truncation (the ideal accumulator)
  int fraction_bits = kExact;
  OutputRounding rounding = OutputRounding::NearestEven;
  int output_fraction_bits = 23;
  // The alignment exponent is at least this; a zero C counts as 2^exponent_floor. -126: MMA-Sim's
  // model (a zero C counts as 2^-126); below it, Khattak and Mikaitis's models (a zero C ignored,
  // E floored at -132 on A100 and Ada, -133 on H100 and B200). It shows only where products can
  // fall below 2^-126 (BF16, TF32, scaled blocks).
  int exponent_floor = -126;
  // A nonzero sum that rounds to zero gives +0, not a zero of the sum's sign (IEEE). Seen on the
  // H100's bf16 HMMA, where a negative sum below 2^-149 rounds toward zero to +0
  // (tests/data/traces/h100-bf16-subnormal). Like the floor, it shows only where the products can
  // fall below 2^-126.
  bool zero_result_positive = false;
  // A separate C stage (AMD CDNA3, MMA-Sim's amd_fused_dot_add): the block's products alone are
  // fused as above, aligned to their own largest exponent (no floor); then that sum and C are
  // aligned to the larger of their two exponents, the sum floored (toward minus infinity) to
  // `c_stage_sum_bits` and C to `c_stage_c_bits` fraction bits below it, added exactly and
  // rounded once. 0: no such stage, C is one term of the fused block (NVIDIA).
  int c_stage_sum_bits = 0;
  int c_stage_c_bits = 24;
};

enum class Kind {
  Integer,      // s8/u8 -> s32: exact sum, then wrap or clamp
  Float,        // FP operands -> f32 accumulate
  BlockScaled,  // FP operands with per-block scales (mxf8f6f4, mxf4, mxf4nvf4)
};

// How operand bytes hold elements: one byte each; two bytes each, big-endian (FP16, BF16); an
// E2M1 in bits 5:2 of a byte (kind::f8f6f4); two E2M1 per byte, lower k in the lower nibble.
enum class Packing { Byte, Half, PaddedFp4, PackedFp4 };

struct InstructionSpec {
  std::string op;  // the PTX instruction as written (wgmma's N written as "N")
  Kind kind = Kind::Float;
  int k = 0;
  // Integer: operand signedness and .satfinite.
  bool a_signed = true, b_signed = true, saturate = false;
  // Float: element formats, how they sit in operand bytes, and an exact conversion the hardware
  // applies first (FormatId::FP16 for sm_90's FP8 mma.sync, which runs on the FP16 HMMA path).
  FormatId a_format = FormatId::E4M3, b_format = FormatId::E4M3;
  Packing packing = Packing::Byte;
  bool convert_to_fp16 = false;
  // Fused blocks in order: each lists the k indices it sums. The first block takes the user's C
  // unless `c_added_after`, when it takes +0 and the user's C is added to the last block's result
  // by a separate FP32 add, rounded to nearest-even (the trailing FADD that nvcc emits).
  std::vector<std::vector<int>> blocks;
  FusedBlock block;
  bool c_added_after = false;
  // Block scaling: elements per scale, the scale format, and the size of the groups whose
  // products are summed exactly before scaling (0: each product is scaled on its own).
  int scale_block = 0;
  FormatId scale_format = FormatId::UE8M0;
  int exact_group = 0;
  // Exact groups: whether a group whose products sum to zero (or are all zero) still takes part
  // in the alignment maximum through its scale exponents (MMA-Sim's reading), or is left out
  // like a zero product (docs/models.md, "Zero groups").
  bool zero_group_aligns = true;
  // The FP32 NaN written when the result is NaN: 0x7FFFFFFF on NVIDIA's recorded hardware; the
  // default quiet NaN 0x7FC00000 in ozref's AMD specs (MMA-Sim does not model NaN payloads).
  uint32_t nan_bits = kCanonicalNaN;
  std::string evidence;  // where each parameter comes from (docs/models.md has the long form)
};

// Whether two operands' product can fall below 2^-126, where FusedBlock's exponent_floor and
// zero_result_positive show: the smallest subnormals' exponents add up below it (BF16, TF32; not
// FP16, FP8 or FP4, whose products stay far above it).
bool floor_observable(FormatId a, FormatId b);

// The whole-K schedule: one block of all k products.
std::vector<std::vector<int>> one_block(int k);
// K split into `parts` consecutive blocks.
std::vector<std::vector<int>> consecutive_blocks(int k, int parts);

struct ArchSpec {
  std::string name;  // "ideal", "sm_80", ..., or a variant "sm_100+zero-groups-ignored"
  std::string summary;
  std::vector<InstructionSpec> instructions;
  std::string variant_of = "";  // a variant: the spec it changes (empty for a base spec)
};

const std::vector<std::string>& arch_names();  // base specs first, then their variants
std::string arch_names_text();                  // the same as one line: "ideal, sm_80, ..."
// A built-in spec by name, or a spec file (a name containing '/' or ending in .json, read once,
// mma/spec_file.hpp); InputError for an unknown name or a bad file.
const ArchSpec& arch(const std::string& name);
// A spec and its variants (the base's name, then each variant's), for any of them.
std::vector<std::string> arch_family(const std::string& name);
// The instruction of an architecture by op string; InputError naming both when not modelled.
const InstructionSpec& instruction(const ArchSpec& arch, const std::string& op);

}  // namespace ozref::mma
