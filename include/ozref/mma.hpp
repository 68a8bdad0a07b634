// One tensor-core instruction on one output element, by its PTX op string, on bit patterns:
// what `ozref mma-check` replays for each record (docs/architecture.md, "MMA trace records").
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ozref::api {

struct MmaOperands {
  std::span<const uint8_t> a = {}, b = {};  // the element's row of A and column of B along K, as the
                                  // instruction's operand bytes hold them
  uint32_t c = 0;                 // the accumulator's bit pattern (FP32, or INT32)
  std::span<const uint8_t> scale_a = {}, scale_b = {};  // block-scaled kinds: one byte per block
};

struct Instruction {
  std::string op;                 // as the architecture spells it (wgmma's N written as "N")
  std::string kind;               // "integer", "float" or "block-scaled"
  int k = 0;                      // elements along K
  size_t operand_bytes = 0;       // bytes of a (and of b)
  size_t scale_bytes = 0;         // bytes of scale_a (and of scale_b); 0 when not block-scaled
  std::string evidence;           // where the model's parameters come from
};

// The architecture specs ("ideal", "sm_80", ..., variants last) and the instructions of one.
std::vector<std::string> architectures();
std::vector<Instruction> instructions(const std::string& arch);
// InputError for an unknown architecture or an instruction it does not model.
Instruction instruction(const std::string& op, const std::string& arch = "sm_90");

// D's bit pattern. InputError when the operand sizes do not match the instruction.
uint32_t mma(const std::string& op, const MmaOperands& x, const std::string& arch = "sm_90");

// D for `c.size()` output elements at once: element i's operands are bytes
// [i * operand_bytes, (i + 1) * operand_bytes) of a and of b (and likewise of the scales).
// InputError when a size does not match.
struct MmaBatch {
  std::span<const uint8_t> a = {}, b = {};
  std::span<const uint32_t> c = {};
  std::span<const uint8_t> scale_a = {}, scale_b = {};
};
std::vector<uint32_t> mma(const std::string& op, const MmaBatch& x, const std::string& arch = "sm_90");

}  // namespace ozref::api
