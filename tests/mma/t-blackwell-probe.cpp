// The Blackwell zero-group probe (device/probes/mxf4_cases.cpp, run on the GPU by
// mma_probe_blackwell) checked on the CPU: its records, written by the probe's own record writer,
// must tell sm_100 and sm_120 from their "+zero-groups-ignored" variants in every deciding class
// and in no control class; and `ozref probe`'s verdict must name the spec that produced them.
// The per-class table it prints is the one in docs/models.md.
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "cli/probe_verdict.hpp"
#include "cli/verbs.hpp"
#include "io/mma_trace.hpp"
#include "mma/execute.hpp"
#include "mxf4_cases.hpp"
#include "support.hpp"

using namespace ozref;

namespace {

// The probe's records for one instruction, with D = 0 (no hardware here), through the probe's
// writer and ozref's reader.
std::vector<MmaRecord> probe_records(const probe::Mxf4Op& op) {
  const probe::Tiles t = probe::zero_group_tiles(op, probe::kMxf4Seed);
  const auto path = std::filesystem::temp_directory_path() / ("blackwell-probe-" + std::to_string(::getpid()) + ".jsonl");
  size_t written = 0, canaries = 0;
  REQUIRE(probe::write_records(path.string(), op.ptx, t, std::vector<uint32_t>(t.c.size(), 0), "cpu", 0xA5A5A5A5u, written, canaries));
  std::vector<MmaRecord> records;
  read_mma_trace(path.string(), [&](const MmaRecord& r) { records.push_back(r); });
  std::filesystem::remove(path);
  REQUIRE(records.size() == written);
  return records;
}

uint32_t predict(const std::string& arch, const MmaRecord& r) {
  return mma::execute(mma::instruction(mma::arch(arch), r.op), {r.a, r.b, r.c, r.scale_a, r.scale_b});
}

}  // namespace

TEST_CASE("blackwell probe: the zero-group records tell each spec from its variant", "[mma][blackwell-probe]") {
  test::CaseCount cases("Blackwell probe records predicted under both readings");
  for (int id = 0; id < probe::kMxf4OpCount; ++id) {
    const probe::Mxf4Op& op = probe::mxf4_op(id);
    const std::string base = op.arch, variant = base + "+zero-groups-ignored";
    struct Tally { size_t records = 0, differ = 0; std::string example; };
    std::map<std::string, Tally> by_tag;
    for (const MmaRecord& r : probe_records(op)) {
      const uint32_t aligned = predict(base, r), ignored = predict(variant, r);
      Tally& t = by_tag[r.tag];
      ++t.records;
      if (aligned != ignored && t.differ++ == 0)
        t.example = "C " + to_hex32(r.c) + ": " + to_hex32(aligned) + " under " + base + ", " + to_hex32(ignored) + " under " + variant;
      ++cases;
    }
    WARN(op.ptx);
    for (const auto& [tag, t] : by_tag) {
      WARN("  " << tag << ": " << t.records << " records, " << t.differ << " predicted differently" << (t.differ ? "; e.g. " : "") << t.example);
      INFO(op.ptx << " " << tag);
      if (tag.find(":control_") != std::string::npos) CHECK(t.differ == 0);  // no zero group above the others
      else if (tag != "zero_group:random") CHECK(t.differ > 0);
    }
  }
  cases.report(1000);
}

TEST_CASE("blackwell probe: the verdict names the spec that produced the records", "[mma][blackwell-probe]") {
  test::CaseCount verdicts("verdicts on synthetic Blackwell probe records");
  for (int id : {probe::kTcgen05Vec4Ue8m0, probe::kMmaSyncVec4Ue4m3}) {
    const probe::Mxf4Op& op = probe::mxf4_op(id);
    const std::string base = op.arch, variant = base + "+zero-groups-ignored";
    const std::vector<MmaRecord> records = probe_records(op);
    auto produced_by = [&](const std::string& spec) {
      std::vector<MmaRecord> out = records;
      for (MmaRecord& r : out) r.d = predict(spec, r);
      return out;
    };
    INFO(op.ptx);
    for (const std::string& spec : {base, variant}) {
      const cli::Verdict v = cli::settle(spec == base ? variant : base, produced_by(spec));  // from either end of the family
      CHECK(v.use == spec);
      CHECK(v.consistent == std::vector<std::string>{spec});
      CHECK(v.discriminating > 0);
      CHECK(v.text.find("use --arch " + spec) != std::string::npos);
      ++verdicts;
    }
    // One discriminating record as the other reading has it: neither spec reproduces all.
    std::vector<MmaRecord> mixed = produced_by(base);
    for (MmaRecord& r : mixed)
      if (predict(variant, r) != r.d) {
        r.d = predict(variant, r);
        break;
      }
    const cli::Verdict neither = cli::settle(base, mixed);
    CHECK(neither.consistent.empty());
    CHECK(neither.use.empty());
    CHECK(neither.text.find("neither reading") != std::string::npos);
    // The control classes alone cannot decide.
    std::vector<MmaRecord> controls;
    for (const MmaRecord& r : produced_by(base))
      if (r.tag.find(":control_") != std::string::npos) controls.push_back(r);
    REQUIRE(!controls.empty());
    const cli::Verdict undecided = cli::settle(base, controls);
    CHECK(undecided.discriminating == 0);
    CHECK(undecided.use.empty());
    CHECK(undecided.text.find("undecided") != std::string::npos);
    verdicts += 2;
  }
  verdicts.report(8);
}

TEST_CASE("blackwell probe: ozref probe --traces reports the verdict", "[mma][blackwell-probe][cli]") {
  const probe::Mxf4Op& op = probe::mxf4_op(probe::kMmaSyncVec2Ue8m0);
  std::vector<MmaRecord> records = probe_records(op);
  const std::string variant = std::string(op.arch) + "+zero-groups-ignored";
  const auto path = std::filesystem::temp_directory_path() / ("blackwell-verdict-" + std::to_string(::getpid()) + ".jsonl");
  {
    std::ofstream f(path);
    for (MmaRecord& r : records) {
      r.d = predict(variant, r);
      f << format_mma_record(r) << "\n";
    }
  }
  std::ostringstream out;
  CHECK(cli::run_probe({"", {path.string()}, "", op.arch, true}, out) == 1);  // sm_120 itself does not reproduce them
  const auto j = nlohmann::json::parse(out.str());
  CHECK(j["verdict"]["use"] == variant);
  CHECK(j["verdict"]["records"] == records.size());
  std::ostringstream text;
  CHECK(cli::run_probe({"", {path.string()}, "", variant, false}, text) == 0);
  CHECK(text.str().find("verdict: " + variant + " reproduces every record") != std::string::npos);
  std::filesystem::remove(path);
}
