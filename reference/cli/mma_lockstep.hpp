// `ozref lockstep --op <PTX op>` (no --scheme): one GEMM through that instruction on the GPU (ozref's
// kernels, device/gemm/) and through the architecture's model, compared bit for bit, on operands
// drawn as encodings (mma/operand_distributions.hpp), including data where the accumulator is not
// exact (random encodings, INT8 sums past 2^31, wgmma's truncation).
#pragma once
#include <ostream>

#include "cli/verbs.hpp"

namespace ozref::cli {

// Exit 0 when every output is bit-identical, 1 otherwise, 77 without a GPU; InputError for an
// instruction the model or the kernels lack.
int run_mma_lockstep(const LockstepArgs& args, std::ostream& out);

}  // namespace ozref::cli
