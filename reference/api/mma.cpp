// api::mma (include/ozref/mma.hpp): an instruction of an architecture's model by its op string, as
// `ozref mma-check` replays a record.
#include "ozref/mma.hpp"

#include "common/error.hpp"
#include "mma/execute.hpp"
#include "mma/instruction.hpp"

namespace ozref::api {
namespace {

const char* kind_name(mma::Kind k) {
  switch (k) {
    case mma::Kind::Integer: return "integer";
    case mma::Kind::Float: return "float";
    case mma::Kind::BlockScaled: return "block-scaled";
  }
  return "unknown";
}

Instruction public_instruction(const mma::InstructionSpec& s) {
  return {s.op, kind_name(s.kind), s.k, mma::operand_bytes(s), mma::scale_bytes(s), s.evidence};
}

// Bytes of `what` for `count` elements of `per_element` bytes each; InputError naming the op otherwise.
void require_bytes(const std::string& op, const char* what, size_t got, size_t count, size_t per_element) {
  if (got != count * per_element)
    throw InputError(op + ": " + what + " must hold " + std::to_string(count) + " x " + std::to_string(per_element) + " bytes, got " +
                     std::to_string(got));
}

}  // namespace

std::vector<std::string> architectures() { return mma::arch_names(); }

std::vector<Instruction> instructions(const std::string& arch) {
  std::vector<Instruction> out;
  for (const mma::InstructionSpec& s : mma::arch(arch).instructions) out.push_back(public_instruction(s));
  return out;
}

Instruction instruction(const std::string& op, const std::string& arch) { return public_instruction(mma::instruction(mma::arch(arch), op)); }

uint32_t mma(const std::string& op, const MmaOperands& x, const std::string& arch) {
  return mma::execute(mma::instruction(mma::arch(arch), op), {x.a, x.b, x.c, x.scale_a, x.scale_b});
}

std::vector<uint32_t> mma(const std::string& op, const MmaBatch& x, const std::string& arch) {
  const mma::InstructionSpec& spec = mma::instruction(mma::arch(arch), op);
  const size_t count = x.c.size(), bytes = mma::operand_bytes(spec), scales = mma::scale_bytes(spec);
  // a and b agreeing on a count of elements that c does not hold: c is the one to blame
  if (x.a.size() == x.b.size() && x.a.size() % bytes == 0 && x.a.size() / bytes != count)
    throw InputError(op + ": c holds " + std::to_string(count) + " accumulators, but a and b hold the operands of " +
                     std::to_string(x.a.size() / bytes) + " elements (" + std::to_string(bytes) + " bytes each)");
  require_bytes(op, "a", x.a.size(), count, bytes);
  require_bytes(op, "b", x.b.size(), count, bytes);
  require_bytes(op, "scale_a", x.scale_a.size(), count, scales);
  require_bytes(op, "scale_b", x.scale_b.size(), count, scales);
  std::vector<uint32_t> d(count);
  for (size_t i = 0; i < count; ++i)
    d[i] = mma::execute(spec, {x.a.subspan(i * bytes, bytes), x.b.subspan(i * bytes, bytes), x.c[i],
                               x.scale_a.subspan(i * scales, scales), x.scale_b.subspan(i * scales, scales)});
  return d;
}

}  // namespace ozref::api
