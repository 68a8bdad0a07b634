// `ozref mma-check --gemm DIR`: replays a GEMM reproducer (schemes/pipeline/reproducer.hpp) through
// an architecture's model, instruction by instruction along K, and shows each step's accumulator
// beside the subject's and the CPU's final outputs.
#pragma once
#include <ostream>
#include <string>

namespace ozref::cli {

// Exit 0 when the model's output equals the subject's, 1 when they differ (the reproducer shows a
// real divergence); InputError for a malformed folder or an instruction the architecture lacks.
int run_gemm_replay(const std::string& dir, const std::string& arch, bool json, std::ostream& out);

}  // namespace ozref::cli
