// The command line as a whole (cli/command_line.hpp): every refusal is one line
// `ozref <verb>: error: <file or option>: <problem>` and exit code 2, whatever the cause; numeric
// options are range-checked; --threads is taken exactly by the verbs the user guide lists.
#include <filesystem>
#include <new>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "common/error.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;
using test::run_ozref;

namespace {
// Runs the command and requires exit code 2 with an error line that starts with `prefix` and
// contains `needle`.
void require_refusal(const std::vector<std::string>& args, const std::string& prefix, const std::string& needle) {
  const test::CommandResult r = run_ozref(args);
  INFO("stderr: " << r.err);
  CHECK(r.code == 2);
  CHECK(r.err.starts_with(prefix));
  CHECK(r.err.find(needle) != std::string::npos);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
}
}  // namespace

TEST_CASE("command line: no verb, an unknown verb and CLI11's parse errors exit 2 with the verb named", "[cli]") {
  require_refusal({}, "ozref: error: no verb given", "verbs: exact, check, demo, mma-check, probe, prove, run, diff");
  require_refusal({"nosuch"}, "ozref: error: unknown verb 'nosuch'", "verbs: exact");
  require_refusal({"--nosuch", "exact"}, "ozref: error: '--nosuch' before the verb", "verbs: exact");
  require_refusal({"exact", "--a", "x.npy"}, "ozref exact: error: ", "--b is required");
  require_refusal({"check", "--a", "a", "--b", "b", "--c", "c", "--bogus", "1"}, "ozref check: error: ", "--bogus");
  require_refusal({"prove", "extra"}, "ozref prove: error: ", "extra");
  require_refusal({"demo", "--m"}, "ozref demo: error: ", "--m");
  const test::CommandResult help = run_ozref({"exact", "--help"});
  CHECK(help.code == 0);
  CHECK(help.out.find("--out") != std::string::npos);
  CHECK(run_ozref({"--help"}).out.find("mma-check") != std::string::npos);
}

TEST_CASE("command line: numeric options outside their range are refused, naming option and range", "[cli]") {
  test::CaseCount cases("refused numeric options");
  const std::string dims = "is not an integer in [1, 2147483647]";
  for (const auto& [args, needle] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"demo", "--m", "-1"}, "--m: '-1' " + dims},
           {{"demo", "--n", "0"}, "--n: '0' " + dims},
           {{"demo", "--k", "2147483648"}, "--k: '2147483648' " + dims},
           {{"demo", "--k", "1e3"}, "--k: '1e3' " + dims},
           {{"demo", "--seed", "-1"}, "--seed: '-1' is not an integer in [0, 18446744073709551615]"},
           {{"demo", "--seed", "18446744073709551616"}, "--seed: '18446744073709551616' is not an integer"},
           {{"demo", "--phi", "nan"}, "--phi: 'nan' is not a decimal number in [0, 64]"},
           {{"demo", "--phi", "inf"}, "--phi: 'inf' is not a decimal number in [0, 64]"},
           {{"demo", "--phi", "65"}, "--phi: '65' is not a decimal number in [0, 64]"},
           {{"demo", "--threads", "100000"}, "--threads: '100000' is not an integer in [0, 1024]"},
           {{"exact", "--a", "a", "--b", "b", "--out", "c", "--threads", "-1"}, "--threads: '-1' is not an integer in [0, 1024]"},
           {{"check", "--a", "a", "--b", "b", "--c", "c", "--threads", "100000"}, "--threads: '100000'"},
           {{"demo", "--phi", "0x1p3"}, "--phi: '0x1p3' is not a decimal number in [0, 64]"},
           {{"demo", "--phi", "1e1"}, "--phi: '1e1' is not a decimal number in [0, 64]"},
           {{"demo", "--seed", "-0"}, "--seed: '-0' is not an integer in [0, 18446744073709551615]"},
           {{"run", "--dist", "integers:1e3"}, "'1e3' is not an integer"},
           {{"run", "--dist", "phi:0x1p3"}, "'0x1p3' is not a decimal number"},
       }) {
    INFO(args[1] << " " << args[2]);
    require_refusal(args, "ozref " + args[0] + ": error: ", needle);
    ++cases;
  }
  cases.report(17);
}

TEST_CASE("command line: --threads is an option of exact, check, demo, run, verify-trace and lockstep, and of no other verb", "[cli]") {
  for (const std::string verb : {"exact", "check", "demo", "run", "verify-trace", "lockstep"}) {
    const test::CommandResult r = run_ozref({verb, "--help"});
    CHECK(r.out.find("--threads") != std::string::npos);
  }
  for (const std::vector<std::string>& required : {std::vector<std::string>{"mma-check", "--trace", "t"}, {"probe"}, {"prove"},
                                                  {"diff", "left", "right"}}) {
    INFO(required[0]);
    CHECK(run_ozref({required[0], "--help"}).out.find("--threads") == std::string::npos);
    std::vector<std::string> args = required;
    args.insert(args.end(), {"--threads", "2"});
    require_refusal(args, "ozref " + required[0] + ": error: ", "--threads");
  }
}

TEST_CASE("command line: a verb's bad choice of theorem or spread is refused", "[cli]") {
  require_refusal({"prove", "--only", "no-such-theorem"}, "ozref prove: error: ",
                  "--only 'no-such-theorem' selects no theorem (theorem ids: crt.*");
  require_refusal({"prove", "--only", "int8_3"}, "ozref prove: error: ", "selects no theorem (those it matches are long: add --long)");
  require_refusal({"demo", "--m", "2", "--n", "2", "--k", "2", "--phi", "nan"}, "ozref demo: error: ", "--phi");
  require_refusal({"demo", "--m", "2147483647", "--n", "2147483647", "--k", "2147483647"}, "ozref demo: error: ",
                  "--m 2147483647 --n 2147483647 --k 2147483647 would need");
  const test::CommandResult one = run_ozref({"prove", "--only", "gemm_count.ozaki2_fp8"});
  CHECK(one.code == 0);
  CHECK(one.out.find("1 theorems, all proved") != std::string::npos);
}

TEST_CASE("command line: the demo's report lines are whole on both exact-product paths", "[cli]") {
  for (const std::string phi : {"0", "64"}) {  // phi 0: the modular path; 64: an exponent spread that takes the direct path
    const test::CommandResult r = run_ozref({"demo", "--m", "8", "--n", "8", "--k", "16", "--phi", phi, "--seed", "5"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const size_t at = r.out.find("exact product: ");
    REQUIRE(at != std::string::npos);
    const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
    const bool direct = line == "exact product: direct path";
    const bool modular = line.starts_with("exact product: modular path, ") && line.ends_with(" residue GEMMs");
    CHECK((direct || modular));
    CHECK(direct == (phi == "64"));
  }
}

TEST_CASE("command line: a manifest whose fields have the wrong JSON types is exit 2, not a crash", "[cli]") {
  test::Workspace ws;
  std::filesystem::create_directory(ws.path("trace"));
  ws.file("trace/manifest.json", R"({"stages": [{"name": 3, "arrays": [{"name": 1, "file": 2}]}]})");
  const test::CommandResult r = run_ozref({"diff", ws.path("trace"), ws.path("trace")});
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(r.err.starts_with("ozref diff: error: "));
}

TEST_CASE("command line: failures that are not InputErrors still give file or cause and exit 2", "[cli]") {
  using cli::failure_message;
  CHECK(failure_message(std::make_exception_ptr(InputError("a.npy: bad"))) == "a.npy: bad");
  CHECK_THAT(failure_message(std::make_exception_ptr(std::bad_alloc())), Catch::StartsWith("out of memory"));
  const std::filesystem::filesystem_error fs("cannot create directories", "/proc/x/y",
                                             std::make_error_code(std::errc::permission_denied));
  CHECK(failure_message(std::make_exception_ptr(fs)) == "/proc/x/y: Permission denied");
  try {
    nlohmann::json j = 3;
    (void)j.at("stages");
  } catch (...) {
    CHECK_THAT(failure_message(std::current_exception()), Catch::StartsWith("JSON: [json.exception.type_error."));
  }
  CHECK(failure_message(std::make_exception_ptr(std::runtime_error("other"))) == "other");
  CHECK(failure_message(std::make_exception_ptr(42)) == "an unexpected failure (not a std::exception)");
}
