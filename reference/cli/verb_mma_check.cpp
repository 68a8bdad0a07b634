// ozref mma-check --trace FILE[.gz] ... --arch A [--json]: replays recorded MMA executions
// against an architecture's model and reports every record the model does not reproduce.
#include <map>
#include <nlohmann/json.hpp>

#include "cli/gemm_replay.hpp"
#include "cli/record_replay.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "io/json_text.hpp"
#include "io/mma_trace.hpp"

namespace ozref::cli {
namespace {

// An FP32 pattern split TestFloat-style: sign, biased exponent, fraction ("+7F.000000" is 1.0).
std::string split_fp32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%c%02X.%06X", (v >> 31) ? '-' : '+', (v >> 23) & 0xFF, v & 0x7FFFFF);
  return buf;
}

std::string show_result(const mma::InstructionSpec& s, uint32_t v) {
  if (s.kind == mma::Kind::Integer) return std::to_string(static_cast<int32_t>(v));
  return split_fp32(v);
}

struct Counts {
  size_t records = 0, matched = 0, mismatched = 0;
};

}  // namespace

int run_mma_check(const MmaCheckArgs& args, std::ostream& out) {
  if (!args.gemm.empty()) {
    if (!args.traces.empty()) throw InputError("--gemm replays one reproducer: give --trace or --gemm, not both");
    return run_gemm_replay(args.gemm, args.arch, args.json, out);
  }
  if (args.traces.empty()) throw InputError("give --trace FILE (recorded MMA executions) or --gemm DIR (a GEMM reproducer)");
  const mma::ArchSpec& arch = mma::arch(args.arch);
  Counts total;
  std::map<std::string, Counts> by_op;
  nlohmann::json mismatches = nlohmann::json::array();
  for (const std::string& path : args.traces) {
    read_mma_trace(path, [&](const MmaRecord& r) {
      const std::string where = path + ":" + std::to_string(r.line);
      const mma::InstructionSpec& spec = record_instruction(arch, r, where);
      const uint32_t expected = replay_record(spec, r, where);
      Counts& c = by_op[r.op];
      ++c.records;
      ++total.records;
      if (expected == r.d) {
        ++c.matched;
        ++total.matched;
        return;
      }
      ++c.mismatched;
      ++total.mismatched;
      if (mismatches.size() < 20)
        mismatches.push_back({{"where", where}, {"op", r.op}, {"tag", r.tag},
                              {"a", to_hex(r.a)}, {"b", to_hex(r.b)}, {"c", to_hex32(r.c)},
                              {"c_split", show_result(spec, r.c)},
                              {"expected", to_hex32(expected)}, {"expected_split", show_result(spec, expected)},
                              {"observed", to_hex32(r.d)}, {"observed_split", show_result(spec, r.d)}});
    });
  }
  if (args.json) {
    nlohmann::json j = {{"arch", arch.name}, {"records", total.records}, {"matched", total.matched},
                        {"mismatched", total.mismatched}, {"first_mismatches", mismatches}};
    j["by_op"] = nlohmann::json::object();
    for (const auto& [op, c] : by_op)
      j["by_op"][op] = {{"records", c.records}, {"matched", c.matched}, {"mismatched", c.mismatched}};
    out << json_text(j) << "\n";
  } else {
    out << "replayed against " << arch.name << " (" << arch.summary << ")\n";
    for (const auto& [op, c] : by_op)
      out << "  " << op << ": " << c.matched << " of " << c.records << " reproduced\n";
    out << "total: " << total.records << " records, " << total.matched << " matched, " << total.mismatched
        << " mismatched\n";
    for (const auto& m : mismatches)
      out << m["where"].get<std::string>() << " " << m["op"].get<std::string>() << "\n  a=" << m["a"].get<std::string>()
          << "\n  b=" << m["b"].get<std::string>() << "\n  c=" << m["c_split"].get<std::string>()
          << " => observed " << m["observed_split"].get<std::string>() << " expected: "
          << m["expected_split"].get<std::string>() << "\n";
  }
  return total.records > 0 && total.mismatched == 0 ? 0 : 1;
}

void add_mma_check(CLI::App& app, Action& action) {
  auto args = std::make_shared<MmaCheckArgs>();
  CLI::App* verb = app.add_subcommand("mma-check", "replay recorded MMA executions (JSONL, optionally .gz) against a model");
  verb->add_option("--trace", args->traces, "trace files (several allowed)");
  verb->add_option("--gemm", args->gemm, "a GEMM reproducer folder (verify-trace writes them) to replay step by step");
  verb->add_option("--arch", args->arch, "architecture spec: " + mma::arch_names_text())->capture_default_str();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_mma_check(*args, out); }; });
}

}  // namespace ozref::cli
