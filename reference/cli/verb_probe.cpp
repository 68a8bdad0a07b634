// ozref probe: run the hardware probes on a GPU (device/mma_probe, or device/mma_probe_blackwell
// for sm_100 and sm_120) and report the behaviour they show; or, with --traces, report on traces
// recorded earlier. For every instruction: how many records the architecture's model reproduces,
// and which datapath parameters are consistent with every record (fraction bits kept after
// alignment, output rounding, output precision, or wrap versus clamp), found by replaying the
// records through each candidate model; and, where the architecture has variants (open
// questions), which of them the records settle on (probe_verdict.cpp).
#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "cli/probe_verdict.hpp"
#include "cli/record_replay.hpp"
#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "common/run_program.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"
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
  // Block-scaled FP4 kinds: MMA-Sim says F = 35, DeepGEMM #176 bounds it between 34 and 37.
  const std::vector<int> widths = base.kind == mma::Kind::BlockScaled
                                      ? std::vector<int>{33, 34, 35, 36, 37, mma::FusedBlock::kExact}
                                      : std::vector<int>{11, 12, 13, 14, 15, 22, 23, 24, 25, 26, 27, mma::FusedBlock::kExact};
  for (int f : widths)
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

// The trace files named, folders expanded to their *.jsonl and *.jsonl.gz files.
std::vector<std::string> trace_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const auto& p : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(p, ec)) {
      files.push_back(p);  // reading it says what is wrong with it, if anything
      continue;
    }
    std::filesystem::directory_iterator it(p, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().string();
      if (name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")) files.push_back(name);
    }
    if (ec) throw InputError(p + ": cannot list the folder: " + ec.message());
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::string named;
    for (const auto& p : paths) named += (named.empty() ? "" : ", ") + p;
    throw InputError("no trace files (*.jsonl, *.jsonl.gz) in " + named);
  }
  return files;
}

// The probe program for --arch (device/mma_probe, or mma_probe_blackwell for sm_100 and sm_120,
// beside ozref) unless --probe-binary names one.
std::string probe_binary(const ProbeArgs& args) {
  if (!args.probe_binary.empty()) return args.probe_binary;
  std::error_code ec;
  return (std::filesystem::read_symlink("/proc/self/exe", ec).parent_path() / "device" / probe_program(args.arch)).string();
}

// Runs the probe program, which writes its traces into --out. Its exit code.
int run_probe_program(const ProbeArgs& args) {
  const std::string binary = probe_binary(args);
  if (::access(binary.c_str(), X_OK) != 0)
    throw InputError(binary + ": probe program not found or not executable (it is built when a CUDA toolkit is present)");
  prepare_output_folder(args.out, "--out");
  return run_program(binary, {args.out});
}

// The records of one instruction, each already replayed through the architecture's model.
struct InstructionRecords {
  const mma::InstructionSpec* spec = nullptr;
  std::vector<MmaRecord> records;
  size_t reproduced = 0;
};

}  // namespace

int run_probe(const ProbeArgs& args, std::ostream& out) {
  if (!args.out.empty() && !args.traces.empty())
    throw InputError("--out (run the probes and report) and --traces (report on recorded traces) exclude each other");
  if (args.out.empty() && args.traces.empty())
    throw InputError("give --out DIR (run the probes) or --traces FILES (report on recorded traces)");
  if (!args.probe_binary.empty() && args.out.empty()) throw InputError("--probe-binary applies to --out only");
  const mma::ArchSpec& arch = mma::arch(args.arch);
  if (!args.out.empty()) {
    const int code = run_probe_program(args);
    if (code == 77) {
      out << "ozref probe: no GPU that " << probe_binary(args) << " can probe (its message says why; nothing was run)\n";
      return 77;
    }
    if (code != 0) throw InputError("the probe program failed with exit code " + std::to_string(code));
  }
  std::vector<MmaRecord> all;  // every record, for the verdict on the architecture's variants
  std::map<std::string, InstructionRecords> by_op;
  for (const auto& f : trace_files(args.out.empty() ? args.traces : std::vector<std::string>{args.out}))
    read_mma_trace(f, [&](const MmaRecord& r) {
      const std::string where = f + ":" + std::to_string(r.line);
      InstructionRecords& group = by_op[r.op];
      if (!group.spec) group.spec = &record_instruction(arch, r, where);
      group.reproduced += replay_record(*group.spec, r, where) == r.d;
      group.records.push_back(r);
      all.push_back(r);
    });
  nlohmann::json report = {{"arch", arch.name}, {"instructions", nlohmann::json::array()}};
  bool all_reproduced = true;
  for (const auto& [op, group] : by_op) {
    const std::vector<MmaRecord>& records = group.records;
    all_reproduced = all_reproduced && group.reproduced == records.size();
    nlohmann::json consistent = nlohmann::json::array();
    for (const auto& c : candidates(*group.spec)) {  // a candidate must reproduce every one of the first 4096
      const size_t n = std::min<size_t>(4096, records.size());
      size_t matched = 0;
      for (size_t i = 0; i < n; ++i)
        matched += mma::execute(c.spec, {records[i].a, records[i].b, records[i].c, records[i].scale_a, records[i].scale_b}) == records[i].d;
      if (matched == n) consistent.push_back(c.name);
    }
    std::map<std::string, size_t> tags;
    for (const auto& r : records) ++tags[r.tag];
    report["instructions"].push_back({{"op", op}, {"records", records.size()}, {"model_reproduces", group.reproduced},
                                      {"consistent_parameters", consistent}, {"records_by_tag", tags}});
  }
  const Verdict verdict = settle(args.arch, all);
  if (verdict.family.size() > 1) report["verdict"] = verdict.json();
  if (args.json) {
    out << json_text(report) << "\n";
  } else {
    out << "behaviour report against " << arch.name << " (" << arch.summary << ")\n";
    for (const auto& i : report["instructions"]) {
      out << "\n" << i["op"].get<std::string>() << "\n  records " << i["records"] << ", the model reproduces "
          << i["model_reproduces"] << "\n  parameters consistent with the first 4096 records:";
      if (i["consistent_parameters"].empty()) out << " none of the candidates";
      for (const auto& c : i["consistent_parameters"]) out << "\n    " << c.get<std::string>();
      out << "\n";
    }
    if (verdict.family.size() > 1) {
      out << "\nopen questions of " << verdict.family.front() << ": " << verdict.discriminating << " of " << verdict.records
          << " records tell its specs apart\n";
      for (const auto& [name, n] : verdict.reproduced) out << "  " << name << " reproduces " << n << "\n";
      out << "verdict: " << verdict.text << "\n";
    }
  }
  return all_reproduced ? 0 : 1;
}

void add_probe(CLI::App& app, Action& action) {
  auto args = std::make_shared<ProbeArgs>();
  CLI::App* verb = app.add_subcommand("probe", "run the MMA probes on the GPU, or report on recorded traces");
  verb->add_option("--out", args->out, "run the probe program of --arch (device/mma_probe, or mma_probe_blackwell for sm_100 and sm_120) and write its traces here");
  verb->add_option("--traces", args->traces, "trace files or folders to report on instead");
  verb->add_option("--probe-binary", args->probe_binary, "the probe program (default: the one for --arch, in device/ beside ozref)");
  verb->add_option("--arch", args->arch, "the model to compare with")->capture_default_str();
  verb->add_flag("--json", args->json, "one JSON object on standard output");
  verb->callback([args, &action] { action = [args](std::ostream& out) { return run_probe(*args, out); }; });
}

}  // namespace ozref::cli
