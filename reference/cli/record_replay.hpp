// One recorded MMA execution (io/mma_trace.hpp) replayed through an architecture's model, for
// mma-check and probe: a record the model cannot take (an op the architecture does not model,
// operands of the wrong length) is an InputError naming its file and line (`where`).
#pragma once
#include <cstdint>
#include <string>

#include "io/mma_trace.hpp"
#include "mma/instruction.hpp"

namespace ozref::cli {

const mma::InstructionSpec& record_instruction(const mma::ArchSpec& arch, const MmaRecord& r, const std::string& where);
// D as the model computes it for the record's operands.
uint32_t replay_record(const mma::InstructionSpec& spec, const MmaRecord& r, const std::string& where);

}  // namespace ozref::cli
