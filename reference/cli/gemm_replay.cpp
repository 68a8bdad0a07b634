#include "cli/gemm_replay.hpp"

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/hex.hpp"
#include "mma/execute.hpp"
#include "schemes/pipeline/reproducer.hpp"

namespace ozref::cli {
int run_gemm_replay(const std::string& dir, const std::string& arch_name, bool json, std::ostream& out) {
  const schemes::Reproducer r = schemes::read_reproducer(dir);
  const mma::InstructionSpec& spec = mma::instruction(mma::arch(arch_name), r.element.op);
  const size_t step = mma::operand_bytes(spec);
  if (r.element.a.empty() || r.element.a.size() % step != 0)
    throw InputError(dir + "/a.npy: " + std::to_string(r.element.a.size()) + " bytes, not a multiple of the " + std::to_string(step) +
                     " one " + spec.op + " takes");
  std::vector<uint32_t> chain;
  uint32_t c = r.element.c_in;
  for (size_t at = 0; at < r.element.a.size(); at += step) {
    c = mma::execute(spec, {std::span(r.element.a).subspan(at, step), std::span(r.element.b).subspan(at, step), c, {}, {}});
    chain.push_back(c);
  }
  const bool same = c == r.subject;
  if (json) {
    nlohmann::json steps = nlohmann::json::array();
    for (uint32_t v : chain) steps.push_back(to_hex32(v));
    out << nlohmann::json{{"reproducer", dir}, {"op", spec.op}, {"arch", arch_name}, {"stage", r.stage}, {"array", r.array},
                          {"index", r.index}, {"steps", steps}, {"model", to_hex32(c)}, {"subject", to_hex32(r.subject)},
                          {"cpu", to_hex32(r.cpu)}, {"subject_matches_model", same}}
               .dump()
        << "\n";
  } else {
    out << "GEMM reproducer " << dir << ": " << r.stage << "." << r.array << r.index << ", " << spec.op << " on " << arch_name << ", "
        << chain.size() << " instructions along K\n";
    for (size_t i = 0; i < chain.size(); ++i) out << "  after instruction " << i << ": " << to_hex32(chain[i]) << "\n";
    out << "  model " << to_hex32(c) << ", recorded cpu " << to_hex32(r.cpu) << ", subject " << to_hex32(r.subject) << ": "
        << (same ? "the subject matches the model" : "the subject differs from the model") << "\n";
  }
  return same ? 0 : 1;
}

}  // namespace ozref::cli
