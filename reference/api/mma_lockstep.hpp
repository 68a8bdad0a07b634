// The MMA-level lockstep (`ozref lockstep --op`): one GEMM through a PTX instruction on the GPU
// (ozref's kernels, device/gemm/) and through an architecture's model, compared bit for bit, on
// operands drawn as encodings (mma/operand_distributions.hpp), including data where the accumulator
// is not exact (random encodings, INT8 sums past 2^31, wgmma's truncation).
#pragma once
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "mma/operand_distributions.hpp"
#include "mma/instruction.hpp"

namespace ozref::api {

struct MmaLockstepOptions {
  std::string op, arch = "sm_90";
  size_t m = 0, n = 0, k = 0;
  mma::OperandDistribution dist;
  uint64_t seed = 1;
  int threads = 0;
  std::string dump;  // a folder for the operands, both outputs and a reproducer of the first difference; empty: none
};

struct MmaLockstep {
  const mma::InstructionSpec* spec = nullptr;
  std::string device;                  // the GPU's name; empty when none ran (why_not says why)
  std::string why_not;
  size_t k_model = 0;                  // K padded to the instruction's K with zeros
  std::vector<uint8_t> a, b;           // m rows and n columns of k bytes
  std::vector<uint32_t> gpu, cpu;      // the outputs' bit patterns, m x n
  size_t mismatched = 0, first = 0;    // first: the flat index of the first mismatch
  size_t inexact = 0;                  // outputs where the model is not the exact result (inexact_means)
  const char* inexact_means = "";
  bool ran() const { return !device.empty(); }
};

// InputError for an instruction the architecture's model or the kernels lack. Without a GPU the
// result has not run (why_not); with one, the dump folder is written when asked for.
MmaLockstep mma_lockstep(const MmaLockstepOptions& o);
// The run as `ozref lockstep --op --json` prints it.
nlohmann::json mma_lockstep_json(const MmaLockstepOptions& o, const MmaLockstep& r);

}  // namespace ozref::api
