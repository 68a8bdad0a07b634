#include "mma/spec_file.hpp"

#include <set>

#include "common/error.hpp"
#include "common/hex.hpp"
#include "common/named_choice.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"
#include "io/json_text.hpp"
#include "io/mma_trace.hpp"

namespace ozref::mma {
namespace {

using nlohmann::json;

constexpr uint64_t kMaxSpecFileBytes = uint64_t{1} << 24;
constexpr int kMaxFractionBits = 96;  // keeps every aligned term and the block sum inside 127 bits

const char* kind_name(Kind k) { return k == Kind::Integer ? "integer" : k == Kind::Float ? "float" : "block_scaled"; }
const char* packing_name(Packing p) {
  switch (p) {
    case Packing::Byte: return "byte";
    case Packing::Half: return "half";
    case Packing::PaddedFp4: return "padded_fp4";
    case Packing::PackedFp4: return "packed_fp4";
  }
  return "";
}
std::string format_name(FormatId f) { return std::string(format_spec(f).name); }

const json& field(const json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw InputError(where + ": missing field '" + name + "'");
  return j.at(name);
}
template <typename T>
T typed(const json& j, const char* name, const std::string& where) {
  const json& v = field(j, name, where);
  try {
    return v.get<T>();
  } catch (const json::exception&) {
    throw InputError(where + ": field '" + std::string(name) + "' has the wrong type (" + json_text(v).substr(0, 40) + ")");
  }
}
int bounded(const json& j, const char* name, int lo, int hi, const std::string& where) {
  const int v = typed<int>(j, name, where);
  if (v < lo || v > hi)
    throw InputError(where + ": field '" + std::string(name) + "' is " + std::to_string(v) + ", outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v;
}
FormatId format_field(const json& j, const char* name, const std::string& where) {
  try {
    return format_by_name(typed<std::string>(j, name, where)).id;
  } catch (const InputError& e) {
    throw InputError(where + ": field '" + std::string(name) + "': " + e.what());
  }
}

FusedBlock block_from_json(const json& j, const std::string& where) {
  FusedBlock b;
  b.fraction_bits = bounded(j, "fraction_bits", FusedBlock::kExact, kMaxFractionBits, where);
  b.rounding = named_choice<OutputRounding>(typed<std::string>(j, "rounding", where), where + " rounding",
                                            {{"toward_zero", OutputRounding::TowardZero}, {"nearest_even", OutputRounding::NearestEven}});
  b.output_fraction_bits = bounded(j, "output_fraction_bits", 0, 23, where);
  b.exponent_floor = bounded(j, "exponent_floor", -1000, 1000, where);
  if (j.contains("zero_result_positive")) b.zero_result_positive = typed<bool>(j, "zero_result_positive", where);  // absent: IEEE's sign
  if (j.contains("c_stage_sum_bits")) {  // absent: no separate C stage
    b.c_stage_sum_bits = bounded(j, "c_stage_sum_bits", 1, 64, where);
    b.c_stage_c_bits = bounded(j, "c_stage_c_bits", 1, b.c_stage_sum_bits, where);
    if (b.fraction_bits == FusedBlock::kExact) throw InputError(where + ": a separate C stage needs finite fraction_bits");
  }
  return b;
}

// The operand formats must fit the packing, and the blocks must use every k exactly once.
void check_layout(const InstructionSpec& s, const std::string& where) {
  if (s.kind == Kind::Integer) return;
  const int bits = s.packing == Packing::Half ? 16 : s.packing == Packing::Byte ? 8 : 4;
  for (FormatId f : {s.a_format, s.b_format}) {
    const FormatSpec& fs = format_spec(f);
    if (fs.bits != bits || !fs.is_signed)
      throw InputError(where + ": format " + format_name(f) + " does not fit packing " + packing_name(s.packing));
  }
  if ((s.packing == Packing::PackedFp4 && s.k % 2) || s.blocks.empty())
    throw InputError(where + ": blocks must not be empty (and packed FP4 needs an even k)");
  std::set<int> seen;
  for (const auto& block : s.blocks)
    for (int k : block)
      if (k < 0 || k >= s.k || !seen.insert(k).second)
        throw InputError(where + ": blocks must list each k in [0, " + std::to_string(s.k) + ") exactly once (" + std::to_string(k) + ")");
  if (static_cast<int>(seen.size()) != s.k) throw InputError(where + ": blocks leave some k out");
  if (s.kind != Kind::BlockScaled) return;
  if (s.scale_block <= 0 || s.k % s.scale_block || (s.exact_group && (s.exact_group < 0 || s.scale_block % s.exact_group)))
    throw InputError(where + ": scale_block must divide k, and exact_group (0 or more) must divide scale_block");
  if (s.scale_format != FormatId::UE8M0 && s.scale_format != FormatId::UE4M3)
    throw InputError(where + ": scale_format must be ue8m0 or ue4m3");
}

json block_to_json(const FusedBlock& b) {
  json j = {{"fraction_bits", b.fraction_bits},
            {"rounding", b.rounding == OutputRounding::TowardZero ? "toward_zero" : "nearest_even"},
            {"output_fraction_bits", b.output_fraction_bits},
            {"exponent_floor", b.exponent_floor}};
  if (b.zero_result_positive) j["zero_result_positive"] = true;
  if (b.c_stage_sum_bits) j.update({{"c_stage_sum_bits", b.c_stage_sum_bits}, {"c_stage_c_bits", b.c_stage_c_bits}});
  return j;
}

// The NaN an instruction writes, as 8 hex digits; absent from a file: NVIDIA's 7fffffff.
uint32_t nan_field(const json& j, const std::string& where) {
  if (!j.contains("nan_bits")) return kCanonicalNaN;
  const uint32_t bits = word_from_hex(typed<std::string>(j, "nan_bits", where), where + ": field 'nan_bits'");
  if ((bits & 0x7F800000u) != 0x7F800000u || !(bits & 0x007FFFFFu))
    throw InputError(where + ": field 'nan_bits' must be an FP32 NaN, got " + to_hex32(bits));
  return bits;
}

}  // namespace

json instruction_to_json(const InstructionSpec& s) {
  json j = {{"op", s.op}, {"kind", kind_name(s.kind)}, {"k", s.k}, {"evidence", s.evidence}};
  if (s.kind == Kind::Integer) {
    j.update({{"a_signed", s.a_signed}, {"b_signed", s.b_signed}, {"saturate", s.saturate}});
    return j;
  }
  j.update({{"a_format", format_name(s.a_format)}, {"b_format", format_name(s.b_format)},
            {"packing", packing_name(s.packing)}, {"convert_to_fp16", s.convert_to_fp16},
            {"blocks", s.blocks}, {"c_added_after", s.c_added_after}, {"block", block_to_json(s.block)}});
  if (s.nan_bits != kCanonicalNaN) j["nan_bits"] = to_hex32(s.nan_bits);
  if (s.kind == Kind::BlockScaled)
    j.update({{"scale_block", s.scale_block}, {"scale_format", format_name(s.scale_format)},
              {"exact_group", s.exact_group}, {"zero_group_aligns", s.zero_group_aligns}});
  return j;
}

InstructionSpec instruction_from_json(const json& j, const std::string& where) {
  InstructionSpec s;
  s.op = typed<std::string>(j, "op", where);
  const std::string at = where + " (" + s.op + ")";
  s.kind = named_choice<Kind>(typed<std::string>(j, "kind", at), at + " kind",
                              {{"integer", Kind::Integer}, {"float", Kind::Float}, {"block_scaled", Kind::BlockScaled}});
  s.k = bounded(j, "k", 1, 64, at);
  s.evidence = j.contains("evidence") ? typed<std::string>(j, "evidence", at) : "";
  if (s.kind == Kind::Integer) {
    s.a_signed = typed<bool>(j, "a_signed", at);
    s.b_signed = typed<bool>(j, "b_signed", at);
    s.saturate = typed<bool>(j, "saturate", at);
    return s;
  }
  s.a_format = format_field(j, "a_format", at);
  s.b_format = format_field(j, "b_format", at);
  s.packing = named_choice<Packing>(typed<std::string>(j, "packing", at), at + " packing",
                                    {{"byte", Packing::Byte}, {"half", Packing::Half}, {"padded_fp4", Packing::PaddedFp4}, {"packed_fp4", Packing::PackedFp4}});
  s.convert_to_fp16 = typed<bool>(j, "convert_to_fp16", at);
  s.blocks = typed<std::vector<std::vector<int>>>(j, "blocks", at);
  s.c_added_after = typed<bool>(j, "c_added_after", at);
  s.block = block_from_json(field(j, "block", at), at + " block");
  s.nan_bits = nan_field(j, at);
  if (s.kind == Kind::BlockScaled) {
    s.scale_block = bounded(j, "scale_block", 1, 64, at);
    s.scale_format = format_field(j, "scale_format", at);
    s.exact_group = bounded(j, "exact_group", 0, 64, at);
    s.zero_group_aligns = typed<bool>(j, "zero_group_aligns", at);
  }
  check_layout(s, at);
  return s;
}

json arch_to_json(const ArchSpec& a) {
  json instructions = json::array();
  for (const InstructionSpec& s : a.instructions) instructions.push_back(instruction_to_json(s));
  return {{"ozref_spec", 1}, {"name", a.name}, {"summary", a.summary}, {"instructions", instructions}};
}

ArchSpec arch_from_json(const json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("ozref_spec") || j.at("ozref_spec") != 1)
    throw InputError(where + ": not an ozref spec file (expected \"ozref_spec\": 1)");
  ArchSpec a;
  a.name = typed<std::string>(j, "name", where);
  a.summary = j.contains("summary") ? typed<std::string>(j, "summary", where) : "";
  const json& list = field(j, "instructions", where);
  if (!list.is_array() || list.empty()) throw InputError(where + ": 'instructions' must be a non-empty array");
  std::set<std::string> ops;
  for (size_t i = 0; i < list.size(); ++i) {
    a.instructions.push_back(instruction_from_json(list[i], where + ": instructions[" + std::to_string(i) + "]"));
    if (!ops.insert(a.instructions.back().op).second)
      throw InputError(where + ": instruction '" + a.instructions.back().op + "' is listed twice");
  }
  return a;
}

ArchSpec read_spec_file(const std::string& path) {
  json j;
  try {
    j = json::parse(read_input_file(path, kMaxSpecFileBytes));
  } catch (const json::parse_error& e) {
    throw InputError(path + ": not valid JSON (" + e.what() + ")");
  }
  ArchSpec a = arch_from_json(j, path);
  a.name = path;  // the name --arch resolves it by
  return a;
}

void write_spec_file(const std::string& path, const ArchSpec& a) { write_file_atomically(path, json_text(arch_to_json(a), 2) + "\n"); }

bool is_spec_file_name(const std::string& name) {
  return name.find('/') != std::string::npos || (name.size() > 5 && name.ends_with(".json"));
}

}  // namespace ozref::mma
