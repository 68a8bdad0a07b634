// Specs as data: an architecture spec (its instructions' datapath descriptions, mma/instruction.hpp)
// written to and read from JSON (docs/infer.md, "Spec files"). Every field of InstructionSpec is
// written, so that a spec read back executes bit for bit as the one written.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "mma/instruction.hpp"

namespace ozref::mma {

nlohmann::json instruction_to_json(const InstructionSpec& s);
nlohmann::json arch_to_json(const ArchSpec& a);
// `where` names the file (and field) in an InputError for a missing or malformed field.
InstructionSpec instruction_from_json(const nlohmann::json& j, const std::string& where);
ArchSpec arch_from_json(const nlohmann::json& j, const std::string& where);

// A spec file: read whole, parsed and checked (InputError naming the file on any fault); written
// whole or not at all.
ArchSpec read_spec_file(const std::string& path);
void write_spec_file(const std::string& path, const ArchSpec& a);

// Whether an --arch value names a spec file rather than a built-in spec: it contains '/' or ends
// in ".json".
bool is_spec_file_name(const std::string& name);

}  // namespace ozref::mma
