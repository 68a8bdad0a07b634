#include "cli/record_replay.hpp"

#include "common/error.hpp"
#include "mma/execute.hpp"

namespace ozref::cli {

const mma::InstructionSpec& record_instruction(const mma::ArchSpec& arch, const MmaRecord& r, const std::string& where) {
  try {
    return mma::instruction(arch, r.op);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

uint32_t replay_record(const mma::InstructionSpec& spec, const MmaRecord& r, const std::string& where) {
  try {
    return mma::execute(spec, {r.a, r.b, r.c, r.scale_a, r.scale_b});
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

}  // namespace ozref::cli
