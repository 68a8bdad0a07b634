#include <map>

#include "common/error.hpp"
#include "mma/arch/arch_list.hpp"
#include "mma/instruction.hpp"

namespace ozref::mma {

std::vector<std::vector<int>> one_block(int k) { return consecutive_blocks(k, 1); }

std::vector<std::vector<int>> consecutive_blocks(int k, int parts) {
  std::vector<std::vector<int>> blocks(parts);
  for (int i = 0; i < k; ++i) blocks[i * parts / k].push_back(i);
  return blocks;
}

namespace {
const std::map<std::string, ArchSpec>& registry() {
  static const std::map<std::string, ArchSpec> archs = [] {
    std::map<std::string, ArchSpec> m;
    for (ArchSpec a : {make_ideal(), make_sm_80(), make_sm_89(), make_sm_90(), make_sm_100(), make_sm_120()})
      m.emplace(a.name, std::move(a));
    return m;
  }();
  return archs;
}
}  // namespace

const std::vector<std::string>& arch_names() {
  static const std::vector<std::string> names = {"ideal", "sm_80", "sm_89", "sm_90", "sm_100", "sm_120"};
  return names;
}

const ArchSpec& arch(const std::string& name) {
  const auto it = registry().find(name);
  if (it == registry().end())
    throw InputError("unknown architecture '" + name + "' (known: ideal, sm_80, sm_89, sm_90, sm_100, sm_120)");
  return it->second;
}

const InstructionSpec& instruction(const ArchSpec& a, const std::string& op) {
  for (const auto& s : a.instructions)
    if (s.op == op) return s;
  throw InputError("architecture " + a.name + " does not model the instruction '" + op + "'");
}

}  // namespace ozref::mma
