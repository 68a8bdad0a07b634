// The trace reader and ozref mma-check: counts, exit codes, and bad input naming the line.
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/verbs.hpp"
#include "common/error.hpp"
#include "io/mma_trace.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
std::string write_trace(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()) + ".jsonl");
  std::ofstream(path) << text;
  return path.string();
}
const char* kS8 = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32";
std::string record(uint32_t d) {
  MmaRecord r;
  r.op = kS8;
  r.a.assign(32, 0x02);  // 2 * 3 * 32 = 192
  r.b.assign(32, 0x03);
  r.c = 5;
  r.d = d;
  return format_mma_record(r) + "\n";
}
}  // namespace

TEST_CASE("mma-check: matches, mismatches and the JSON report", "[mma]") {
  const std::string path = write_trace("ok", record(197) + "\n" + record(197) + record(198));
  std::ostringstream out;
  CHECK(cli::run_mma_check({{path}, "sm_90", true}, out) == 1);
  const auto j = nlohmann::json::parse(out.str());
  CHECK(j["records"] == 3);
  CHECK(j["matched"] == 2);
  CHECK(j["mismatched"] == 1);
  CHECK(j["by_op"][kS8]["mismatched"] == 1);
  REQUIRE(j["first_mismatches"].size() == 1);
  CHECK(j["first_mismatches"][0]["expected_split"] == "197");
  CHECK(j["first_mismatches"][0]["observed_split"] == "198");
  CHECK(j["first_mismatches"][0]["where"].get<std::string>().find(":4") != std::string::npos);
  const std::string good = write_trace("good", record(197));
  std::ostringstream out2;
  CHECK(cli::run_mma_check({{good}, "sm_90", false}, out2) == 0);
  std::filesystem::remove(path);
  std::filesystem::remove(good);
}

TEST_CASE("mma-check: an empty trace is not a pass", "[mma]") {
  const std::string path = write_trace("empty", "\n\n");
  std::ostringstream out;
  CHECK(cli::run_mma_check({{path}, "sm_90", true}, out) == 1);
  std::filesystem::remove(path);
}

TEST_CASE("mma-check: malformed records and unmodelled ops name the line", "[mma]") {
  const std::pair<std::string, std::string> cases[] = {
      {record(197) + "{not json\n", ":2: not JSON"},
      {"{\"op\":\"" + std::string(kS8) + "\",\"a\":\"zz\",\"b\":\"00\",\"c\":\"00000000\",\"d\":\"00000000\"}\n", ":1: \"a\" is not hex"},
      {"{\"op\":\"" + std::string(kS8) + "\",\"a\":\"00\",\"b\":\"00\",\"c\":\"00000000\",\"d\":\"00000000\"}\n", ":1: " + std::string(kS8) + ": operands must be 32 bytes"},
      {"{\"op\":\"mma.sync.made.up\",\"a\":\"00\",\"b\":\"00\",\"c\":\"00000000\",\"d\":\"00000000\"}\n", ":1: architecture sm_90 does not model"},
      {"{\"op\":\"" + std::string(kS8) + "\",\"a\":\"00\",\"b\":\"00\",\"c\":\"0000\",\"d\":\"00000000\"}\n", ":1: \"c\" must be 8 hex digits"},
      {"{\"a\":\"00\"}\n", ":1: record has no string \"op\""},
  };
  for (const auto& [text, needle] : cases) {
    const std::string path = write_trace("bad", text);
    std::ostringstream out;
    try {
      cli::run_mma_check({{path}, "sm_90", true}, out);
      FAIL("accepted: " << text);
    } catch (const InputError& e) {
      INFO(e.what());
      CHECK(std::string(e.what()).find(needle) != std::string::npos);
    }
    std::filesystem::remove(path);
  }
}
