// ozref infer --op OP (--oracle CMD | --records FILE...) [--out SPEC.json]: identifies an MMA's
// datapath from the outside (docs/infer.md): searches the family for the specs that agree with
// the black box's answers, validates the one left on fresh random queries, and writes it with
// the queries that pinned each dimension as its evidence.
#include <nlohmann/json.hpp>

#include "cli/options.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "infer/protocol.hpp"
#include "infer/version_space.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"
#include "mma/spec_file.hpp"

namespace ozref::cli {
namespace {

nlohmann::json asked_json(const MmaRecord& q) { return {{"query", infer::format_query(q)}, {"answer", to_hex32(q.d)}}; }

nlohmann::json report_json(const InferArgs& args, const infer::Inference& r, size_t family_size) {
  nlohmann::json pins = nlohmann::json::array();
  for (const infer::Pin& p : r.pins) {
    nlohmann::json pin = {{"dimension", p.dimension}, {"value", p.value}, {"query", p.query}};
    if (p.query) pin.update(asked_json(p.asked));
    pins.push_back(pin);
  }
  nlohmann::json j = {{"op", args.op}, {"family", family_size}, {"queries", r.queries}, {"seconds", r.seconds},
                      {"seed", args.seed}, {"remaining", r.remaining.size()}, {"equivalent", r.equivalent}, {"validated", r.validated}, {"pins", pins},
                      {"open", infer::open_dimensions(r.remaining)}};
  if (r.split) j["split"] = infer::format_query(*r.split);
  if (r.unexplained) j["unexplained"] = asked_json(*r.unexplained);
  return j;
}

void write_inferred(const InferArgs& args, const infer::Inference& r, const nlohmann::json& report) {
  mma::InstructionSpec s = r.remaining.front();
  for (const infer::Pin& p : r.pins)
    s.evidence += (s.evidence.empty() ? "" : "; ") + p.dimension + " = " + p.value +
                  (p.query ? " (query " + std::to_string(p.query) + ")" : " (the family's only value)");
  const mma::ArchSpec a{"inferred", "inferred by ozref infer from " + std::to_string(r.queries) + " queries, validated on " + std::to_string(r.validated), {s}};
  nlohmann::json j = mma::arch_to_json(a);
  j["inference"] = report;
  write_file_atomically(args.out, json_text(j, 2) + "\n");
}

void print_text(const InferArgs& args, const infer::Inference& r, size_t family_size, std::ostream& out) {
  out << "infer " << args.op << ": " << family_size << " specs in the family; " << r.queries << (args.records.empty() ? " queries asked" : " records read")
      << " in " << r.seconds << " s; " << r.remaining.size() << " remain\n";
  for (const infer::Pin& p : r.remaining.empty() ? std::vector<infer::Pin>{} : r.pins)  // no finding once all fell
    out << "  " << p.dimension << " = " << p.value
        << (p.query ? "  (query " + std::to_string(p.query) + ": " + infer::format_query(p.asked) + " -> " + to_hex32(p.asked.d) + ")" : "  (the family's only value)") << "\n";
  if (r.unexplained)
    out << "no spec of the family reproduces the black box; smallest input found: " << infer::format_query(*r.unexplained) << " -> "
        << to_hex32(r.unexplained->d) << (r.validated ? " (during validation, after " + std::to_string(r.validated) + " queries)" : "") << "\n";
  for (const std::string& open : infer::open_dimensions(r.remaining)) out << "  open: " << open << "\n";
  if (r.remaining.size() > 1)
    out << (r.split ? "a query that splits them: " + infer::format_query(*r.split)
                    : std::string("no query drawn splits them: one behaviour as far as the search sees; the first stands for them")) << "\n";
  if (r.found() && args.records.empty()) out << "validated on " << r.validated << " fresh random queries (seed " << args.seed << "): all agree\n";
}

}  // namespace

int run_infer(const InferArgs& args, std::ostream& out) {
  if (args.oracle.empty() == args.records.empty()) throw InputError("give --oracle CMD (a black box) or --records FILE (fixed records), one of them");
  if (!args.out.empty()) check_output_file(args.out, "--out");
  const mma::InstructionSpec interface = infer::interface_of(args.op, args.like);
  infer::SearchOptions options;
  options.seed = args.seed;
  options.validate = args.validate;
  infer::Inference r;
  if (!args.oracle.empty()) {
    infer::ProcessOracle box(args.oracle, args.oracle_timeout);
    r = infer::search(interface, [&box](const MmaRecord& q) { return box(q); }, options);
  } else {
    std::vector<MmaRecord> records;
    for (const std::string& path : args.records) read_mma_trace(path, [&](const MmaRecord& rec) { records.push_back(rec); });
    r = infer::narrow(interface, records, options);
  }
  const size_t family_size = infer::family(interface).size();
  const nlohmann::json report = report_json(args, r, family_size);
  if (args.json) out << json_text(report) << "\n";
  else print_text(args, r, family_size, out);
  if (r.found() && !args.out.empty()) write_inferred(args, r, report);
  return r.found() ? 0 : 1;
}

void add_infer(CLI::App& app, Action& action) {
  auto args = std::make_shared<InferArgs>();
  CLI::App* verb = app.add_subcommand("infer", "identify an MMA's datapath from a black box's answers (docs/infer.md)");
  verb->add_option("--op", args->op, "the instruction (its operand formats and K come from the first built-in spec with it, or --like)")->required();
  verb->add_option("--oracle", args->oracle, "a command answering the line protocol (e.g. 'ozref serve --arch X --op OP')");
  add_finite_option(verb, "--oracle-timeout", args->oracle_timeout, 0.001, 1e6,
                    "seconds the oracle may take over one answer (and to exit once its input is closed) before it is killed: exit 2")
      ->capture_default_str();
  verb->add_option("--records", args->records, "fixed MMA trace records instead of a black box (not adaptive)");
  verb->add_option("--like", args->like, "the spec (name or file) whose instruction gives the op's interface");
  verb->add_option("--out", args->out, "write the inferred spec file here (only when exactly one spec fits)");
  verb->add_option("--seed", args->seed, "seed of the query draws")->capture_default_str();
  verb->add_option("--validate", args->validate, "fresh random queries the inferred spec is checked on")->capture_default_str();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_infer(*args, out); }; });
}

}  // namespace ozref::cli
