// ozref probe: run the hardware probes on a GPU (device/mma_probe) and report the behaviour they
// show; or, with --traces, report on traces recorded earlier. For every instruction: how many
// records the architecture's model reproduces, and which datapath parameters are consistent with
// every record (fraction bits kept after alignment, output rounding, output precision, or wrap
// versus clamp), found by replaying the records through each candidate model.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "io/mma_trace.hpp"
#include "mma/execute.hpp"

namespace ozref::cli {
namespace {

struct Candidate {
  std::string name;
  mma::InstructionSpec spec;
};

std::vector<Candidate> candidates(const mma::InstructionSpec& base) {
  std::vector<Candidate> out;
  if (base.kind == mma::Kind::Integer) {
    for (bool sat : {false, true}) {
      Candidate c{sat ? "clamp to int32" : "wrap modulo 2^32", base};
      c.spec.saturate = sat;
      out.push_back(c);
    }
    return out;
  }
  for (int f : {11, 12, 13, 14, 15, 22, 23, 24, 25, 26, 27, mma::FusedBlock::kExact})
    for (auto r : {mma::OutputRounding::TowardZero, mma::OutputRounding::NearestEven})
      for (int ob : {13, 23}) {
        Candidate c{"", base};
        c.spec.block.fraction_bits = f;
        c.spec.block.rounding = r;
        c.spec.block.output_fraction_bits = ob;
        c.name = std::string("F = ") + (f == mma::FusedBlock::kExact ? "exact" : std::to_string(f)) +
                 (r == mma::OutputRounding::TowardZero ? ", RZ" : ", RNE") + ", " + std::to_string(ob) + " output fraction bits";
        out.push_back(c);
      }
  return out;
}

std::vector<std::string> trace_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::directory_iterator(p)) {
        const std::string name = e.path().string();
        if (name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")) files.push_back(name);
      }
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError("no trace files (*.jsonl, *.jsonl.gz) found");
  return files;
}

}  // namespace

int run_probe(const ProbeArgs& args, std::ostream& out) {
  std::vector<std::string> inputs = args.traces;
  if (!args.out.empty()) {
    std::string binary = args.probe_binary;
    if (binary.empty())
      binary = (std::filesystem::canonical("/proc/self/exe").parent_path() / "device" / "mma_probe").string();
    if (!std::filesystem::exists(binary))
      throw InputError(binary + ": probe program not found (it is built when a CUDA toolkit is present)");
    std::filesystem::create_directories(args.out);
    const int status = std::system(("'" + binary + "' '" + args.out + "'").c_str());
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 3;
    if (code == 77) {
      out << "ozref probe: no CUDA device present: the probes need a GPU (nothing was run)\n";
      return 77;
    }
    if (code != 0) throw InputError(binary + ": the probe program failed with exit code " + std::to_string(code));
    inputs = {args.out};
  }
  if (inputs.empty()) throw InputError("give --out DIR (run the probes) or --traces FILES (report on recorded traces)");
  const mma::ArchSpec& arch = mma::arch(args.arch);
  std::map<std::string, std::vector<MmaRecord>> by_op;
  for (const auto& f : trace_files(inputs))
    read_mma_trace(f, [&](const MmaRecord& r) { by_op[r.op].push_back(r); });
  nlohmann::json report = {{"arch", arch.name}, {"instructions", nlohmann::json::array()}};
  bool all_reproduced = true;
  for (const auto& entry : by_op) {
    const std::string& op = entry.first;
    const std::vector<MmaRecord>& records = entry.second;  // a plain reference: lambdas capture it
    const mma::InstructionSpec& spec = mma::instruction(arch, op);
    auto replay = [&](const mma::InstructionSpec& s, size_t limit) {
      size_t matched = 0, n = std::min(limit, records.size());
      for (size_t i = 0; i < n; ++i)
        matched += mma::execute(s, {records[i].a, records[i].b, records[i].c, records[i].scale_a, records[i].scale_b}) == records[i].d;
      return std::pair{matched, n};
    };
    const auto [matched, total] = replay(spec, records.size());
    all_reproduced = all_reproduced && matched == total;
    nlohmann::json consistent = nlohmann::json::array();
    for (const auto& c : candidates(spec)) {
      const auto [m, n] = replay(c.spec, 4096);  // a candidate must reproduce every one
      if (m == n) consistent.push_back(c.name);
    }
    std::map<std::string, size_t> tags;
    for (const auto& r : records) ++tags[r.tag];
    report["instructions"].push_back({{"op", op}, {"records", total}, {"model_reproduces", matched},
                                      {"consistent_parameters", consistent}, {"records_by_tag", tags}});
  }
  if (args.json) {
    out << report.dump() << "\n";
  } else {
    out << "behaviour report against " << arch.name << " (" << arch.summary << ")\n";
    for (const auto& i : report["instructions"]) {
      out << "\n" << i["op"].get<std::string>() << "\n  records " << i["records"] << ", the model reproduces "
          << i["model_reproduces"] << "\n  parameters consistent with the first 4096 records:";
      if (i["consistent_parameters"].empty()) out << " none of the candidates";
      for (const auto& c : i["consistent_parameters"]) out << "\n    " << c.get<std::string>();
      out << "\n";
    }
  }
  return all_reproduced ? 0 : 1;
}

void add_probe(CLI::App& app, Action& action) {
  auto args = std::make_shared<ProbeArgs>();
  CLI::App* verb = app.add_subcommand("probe", "run the MMA probes on the GPU, or report on recorded traces");
  verb->add_option("--out", args->out, "run device/mma_probe and write its traces here");
  verb->add_option("--traces", args->traces, "trace files or folders to report on instead");
  verb->add_option("--probe-binary", args->probe_binary, "the probe program (default: device/mma_probe beside ozref)");
  verb->add_option("--arch", args->arch, "the model to compare with")->capture_default_str();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_probe(*args, out); }; });
}

}  // namespace ozref::cli
