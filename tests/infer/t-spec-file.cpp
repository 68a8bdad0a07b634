// Specs as data (mma/spec_file.hpp): every built-in spec written to JSON and read back executes
// bit for bit as the original on every recorded trace record (hardware and MMA-Sim's) and on
// random queries; a spec file works wherever an architecture name does; bad files are refused
// with a message naming the file and field.
#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "infer/queries.hpp"
#include "io/mma_trace.hpp"
#include "mma/execute.hpp"
#include "mma/spec_file.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;

namespace {

mma::ArchSpec round_trip(const mma::ArchSpec& a) { return mma::arch_from_json(mma::arch_to_json(a), "round trip of " + a.name); }

uint32_t run(const mma::InstructionSpec& s, const MmaRecord& r) { return mma::execute(s, {r.a, r.b, r.c, r.scale_a, r.scale_b}); }

const mma::InstructionSpec* find(const mma::ArchSpec& a, const std::string& op) {
  for (const auto& s : a.instructions)
    if (s.op == op) return &s;
  return nullptr;
}

}  // namespace

TEST_CASE("spec files: every built-in spec round-trips and replays the recorded traces unchanged", "[infer][spec]") {
  const char* data = std::getenv("OZREF_TEST_DATA");
  REQUIRE(data != nullptr);
  std::vector<MmaRecord> records;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(data) + "/traces"))
    if (entry.path().string().ends_with(".jsonl.gz")) read_mma_trace(entry.path().string(), [&](const MmaRecord& r) { records.push_back(r); });
  REQUIRE(records.size() > 100000);
  test::CaseCount replayed("spec-file replays of recorded records"), recorded_agree("records their own spec reproduces, re-read");
  for (const std::string& name : mma::arch_names()) {
    const mma::ArchSpec& original = mma::arch(name);
    const mma::ArchSpec copy = round_trip(original);
    CHECK(mma::arch_to_json(copy) == mma::arch_to_json(original));  // every field kept
    for (const MmaRecord& r : records) {
      const mma::InstructionSpec* s = find(original, r.op);
      if (!s) continue;
      const uint32_t want = run(*s, r), got = run(*find(copy, r.op), r);
      CHECK(got == want);
      ++replayed;
      if (r.arch == name && got == r.d) ++recorded_agree;  // the hardware's own d, through the file
    }
  }
  replayed.report(records.size());
  recorded_agree.report(1);
}

TEST_CASE("spec files: re-read specs answer random queries as the originals do", "[infer][spec]") {
  Rng rng(test::seed());
  test::CaseCount cases("spec-file random queries");
  for (const std::string& name : mma::arch_names()) {
    const mma::ArchSpec copy = round_trip(mma::arch(name));
    for (size_t i = 0; i < copy.instructions.size(); ++i)
      for (int n = 0; n < 200; ++n) {
        const MmaRecord q = infer::random_query(copy.instructions[i], rng);
        CHECK(run(copy.instructions[i], q) == run(mma::arch(name).instructions[i], q));
        ++cases;
      }
  }
  cases.report(10000);
}

TEST_CASE("spec files: --arch FILE resolves through mma::arch, and bad files name their fault", "[infer][spec]") {
  test::Workspace ws;
  const std::string path = ws.path("sm_89.json");
  mma::write_spec_file(path, mma::arch("sm_89"));
  const mma::ArchSpec& loaded = mma::arch(path);
  CHECK(loaded.name == path);
  CHECK(mma::arch_to_json(loaded)["instructions"] == mma::arch_to_json(mma::arch("sm_89"))["instructions"]);
  CHECK(mma::arch_family(path) == std::vector<std::string>{path});
  CHECK_THROWS_WITH(mma::arch(ws.path("absent.json")), Catch::Contains("absent.json"));
  auto refused = [&](const std::string& file, const std::string& text, const std::string& message) {
    std::ofstream(ws.path(file)) << text;
    CHECK_THROWS_WITH(mma::arch(ws.path(file)), Catch::Contains(file) && Catch::Contains(message));
  };
  nlohmann::json j = mma::arch_to_json(mma::arch("sm_80"));
  refused("not-json.json", "{", "not valid JSON");
  refused("not-spec.json", "{}", "ozref_spec");
  nlohmann::json bad = j;
  bad["instructions"][8]["block"]["fraction_bits"] = 500;
  refused("wide.json", bad.dump(), "fraction_bits");
  bad = j;
  bad["instructions"][8]["blocks"] = {{0, 1, 2}};
  refused("blocks.json", bad.dump(), "blocks");
  bad = j;
  bad["instructions"][8]["a_format"] = "e4m3";
  refused("packing.json", bad.dump(), "does not fit packing");
  bad = j;
  bad["instructions"][8].erase("c_added_after");
  refused("missing.json", bad.dump(), "c_added_after");
  bad = j;
  bad["instructions"][8]["nan_bits"] = "7f800000";  // infinity, not a NaN
  refused("nan.json", bad.dump(), "field 'nan_bits' must be an FP32 NaN, got 7f800000");
  bad["instructions"][8]["nan_bits"] = "7fc0";
  refused("nan-short.json", bad.dump(), "field 'nan_bits' must be 8 hex digits");
  bad = j;
  bad["instructions"][8]["block"]["c_stage_sum_bits"] = 31;
  bad["instructions"][8]["block"]["c_stage_c_bits"] = 40;  // C's width past the sum's
  refused("c-stage.json", bad.dump(), "c_stage_c_bits");
}
