#include <map>
#include <memory>
#include <mutex>

#include "common/error.hpp"
#include "mma/arch/arch_list.hpp"
#include "mma/instruction.hpp"
#include "mma/spec_file.hpp"

namespace ozref::mma {

std::vector<std::vector<int>> one_block(int k) { return consecutive_blocks(k, 1); }

std::vector<std::vector<int>> consecutive_blocks(int k, int parts) {
  std::vector<std::vector<int>> blocks(parts);
  for (int i = 0; i < k; ++i) blocks[i * parts / k].push_back(i);
  return blocks;
}

bool floor_observable(FormatId a, FormatId b) {
  auto smallest = [](FormatId id) {
    const FormatSpec& f = format_spec(id);
    return f.min_normal_exponent() - (f.has_subnormals ? f.fraction_bits : 0);
  };
  return smallest(a) + smallest(b) < -126;
}

namespace {
struct Registry {
  std::map<std::string, ArchSpec> by_name;
  std::vector<std::string> names;  // bases in order, then variants
};

const Registry& registry() {
  static const Registry r = [] {
    Registry out;
    const std::vector<ArchSpec> bases = {make_ideal(), make_sm_80(), make_sm_89(), make_sm_90(), make_sm_100(), make_sm_120(), make_cdna3()};
    std::vector<ArchSpec> all = bases;
    for (ArchSpec& v : make_variants(bases)) all.push_back(std::move(v));
    for (ArchSpec& a : all) {
      out.names.push_back(a.name);
      out.by_name.emplace(a.name, std::move(a));
    }
    return out;
  }();
  return r;
}
}  // namespace

const std::vector<std::string>& arch_names() { return registry().names; }

std::string arch_names_text() {
  std::string text;
  for (const std::string& n : arch_names()) text += (text.empty() ? "" : ", ") + n;
  return text;
}

// Spec files read once per process and kept (arch() hands out references to them).
const ArchSpec& spec_file(const std::string& path) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const ArchSpec>> files;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = files[path];
  if (!slot) slot = std::make_unique<const ArchSpec>(read_spec_file(path));
  return *slot;
}

const ArchSpec& arch(const std::string& name) {
  if (is_spec_file_name(name)) return spec_file(name);
  const auto it = registry().by_name.find(name);
  if (it == registry().by_name.end())
    throw InputError("unknown architecture '" + name + "' (known: " + arch_names_text() + ")");
  return it->second;
}

std::vector<std::string> arch_family(const std::string& name) {
  const ArchSpec& a = arch(name);
  if (is_spec_file_name(name)) return {name};
  const std::string base = a.variant_of.empty() ? a.name : a.variant_of;
  std::vector<std::string> family = {base};
  for (const std::string& n : arch_names())
    if (arch(n).variant_of == base) family.push_back(n);
  return family;
}

const InstructionSpec& instruction(const ArchSpec& a, const std::string& op) {
  for (const auto& s : a.instructions)
    if (s.op == op) return s;
  throw InputError("architecture " + a.name + " does not model the instruction '" + op + "'");
}

}  // namespace ozref::mma
