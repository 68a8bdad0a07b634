// `ozref lockstep --op <PTX op>` (no --scheme): the MMA-level lockstep of api/mma_lockstep.hpp,
// its options refused where a scheme's would not apply, and its report printed.
#pragma once
#include <ostream>

#include "cli/verbs.hpp"

namespace ozref::cli {

// Exit 0 when every output is bit-identical, 1 otherwise, 77 without a GPU; InputError for an
// instruction the model or the kernels lack.
int run_mma_lockstep(const LockstepArgs& args, std::ostream& out);

}  // namespace ozref::cli
