// The exact and check verbs end to end on files: JSON keys and their types, exit codes, and bad
// input refused.
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/verbs.hpp"
#include "common/distributions.hpp"
#include "common/error.hpp"
#include "exact/rational_oracle.hpp"
#include "io/npy.hpp"
#include "cli/cli_support.hpp"
#include "support.hpp"
#include "workspace.hpp"

using namespace ozref;

using test::Workspace;

TEST_CASE("cli: exact writes the correctly rounded product, and check finds it bit-identical", "[cli]") {
  Workspace ws;
  Rng rng(test::seed());
  const Distribution d{Distribution::Phi, 2.0};
  const Matrix<double> a = random_matrix(6, 9, d, rng), b = random_matrix(9, 5, d, rng);
  write_npy(ws.path("a.npy"), npy_from_matrix(a));
  write_npy(ws.path("b.npy"), npy_from_matrix(b));
  std::ostringstream out;
  REQUIRE(cli::run_exact({ws.path("a.npy"), ws.path("b.npy"), ws.path("c.npy"), 0}, out) == 0);
  const Matrix<double> c = matrix_from_npy(read_npy(ws.path("c.npy")), "c");
  const Matrix<oracle::ExactElement> ref = oracle::gemm(a, b);
  for (size_t i = 0; i < c.size(); ++i) REQUIRE(c.data[i] == oracle::to_double(ref.data[i]));

  std::ostringstream json;
  REQUIRE(cli::run_check({ws.path("a.npy"), ws.path("b.npy"), ws.path("c.npy"), true, 0}, json) == 0);
  const auto j = nlohmann::json::parse(json.str());
  for (const char* key : {"m", "n", "k", "c_precision", "complex", "elements", "bit_identical", "compared_elements", "erring_elements",
                          "correct_bits_maxnorm", "correct_bits_elementwise_min", "max_ulp_error", "zero_reference_elements",
                          "zero_reference_mismatches", "nan_mismatches", "infinity_mismatches", "worst_maxnorm", "worst_elementwise",
                          "first_special_mismatch"})
    REQUIRE(j.contains(key));
  CHECK(j.size() == 19);
  CHECK(j["complex"] == false);
  CHECK(j["m"] == 6);
  CHECK(j["k"] == 9);
  CHECK(j["bit_identical"] == 30);
  CHECK(j["correct_bits_maxnorm"].get<double>() >= 53.0);  // only the rounding error remains
}

TEST_CASE("cli: check of a perturbed FP32 result reports the damage", "[cli]") {
  Workspace ws;
  Matrix<double> a(2, 2), b(2, 2);
  a.data = {1, 2, 3, 4};
  b.data = {1, 0, 0, 1};
  write_npy(ws.path("a.npy"), npy_from_matrix(a));
  write_npy(ws.path("b.npy"), npy_from_matrix(b));
  Matrix<float> c(2, 2);
  c.data = {1, 2, 3, 4.5f};
  write_npy(ws.path("c.npy"), npy_from_matrix(c));
  std::ostringstream json;
  REQUIRE(cli::run_check({ws.path("a.npy"), ws.path("b.npy"), ws.path("c.npy"), true, 0}, json) == 0);
  const auto j = nlohmann::json::parse(json.str());
  CHECK(j["bit_identical"] == 3);
  CHECK(j["c_precision"] == "fp32");
  CHECK(j["correct_bits_maxnorm"].get<double>() == Approx(3.0));  // 0.5 / 4
}

TEST_CASE("cli: bad input is an error naming the file", "[cli]") {
  Workspace ws;
  Matrix<double> a(2, 3, 1.0), b(2, 2, 1.0);
  write_npy(ws.path("a.npy"), npy_from_matrix(a));
  write_npy(ws.path("b.npy"), npy_from_matrix(b));
  std::ostringstream out;
  try {
    cli::run_exact({ws.path("a.npy"), ws.path("b.npy"), ws.path("c.npy"), 0}, out);
    FAIL("accepted operands whose shapes disagree");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("shapes do not agree") != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(ws.path("c.npy")));
  write_npy(ws.path("b.npy"), npy_from_matrix(Matrix<double>(3, 2, 1.0)));
  write_npy(ws.path("c.npy"), npy_from_matrix(Matrix<double>(3, 3, 1.0)));
  try {
    cli::run_check({ws.path("a.npy"), ws.path("b.npy"), ws.path("c.npy"), false, 0}, out);
    FAIL("accepted C of the wrong shape");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).find("c.npy") != std::string::npos);
  }
}

namespace {
// `check --json` of C against A = [[1, 2]], B = [[1], [1]] (E = 3, exact) or, with `nan_e`,
// A = [[inf, 1]], B = [[0], [1]] (E = inf * 0 + 1, NaN).
nlohmann::json check_json(const Workspace& ws, const std::vector<double>& c, bool nan_e = false) {
  Matrix<double> a(1, 2), b(2, 1), cm(1, 1);
  a.data = {nan_e ? std::numeric_limits<double>::infinity() : 1.0, nan_e ? 1.0 : 2.0};
  b.data = {nan_e ? 0.0 : 1.0, 1.0};
  cm.data = c;
  write_npy(ws.path("a.npy"), npy_from_matrix(a));
  write_npy(ws.path("b.npy"), npy_from_matrix(b));
  write_npy(ws.path("c.npy"), npy_from_matrix(cm));
  const test::CommandResult r = test::run_ozref({"check", "--json", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--c", ws.path("c.npy")});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}
}  // namespace

TEST_CASE("cli: exact and check of empty products (m = 0) run and compare nothing", "[cli]") {
  // Found by fuzz_cli under UBSan: an empty f4 C's data() is null, which memcpy must not be given.
  Workspace ws;
  write_npy(ws.path("a.npy"), npy_from_matrix(Matrix<double>(0, 2)));
  write_npy(ws.path("b.npy"), npy_from_matrix(Matrix<double>(2, 3, 1.0)));
  write_npy(ws.path("c.npy"), npy_from_matrix(Matrix<float>(0, 3)));
  const test::CommandResult r = test::run_ozref({"check", "--json", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--c", ws.path("c.npy")});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["elements"] == 0);
  CHECK(j["correct_bits_maxnorm"].is_null());
  CHECK(test::run_ozref({"exact", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--out", ws.path("e.npy")}).code == 0);
  CHECK(read_npy(ws.path("e.npy")).shape == std::vector<size_t>{0, 3});
}

TEST_CASE("cli: check of a C that is -inf everywhere has no correct-bits figure (null), not 'exact'", "[cli]") {
  Workspace ws;
  const nlohmann::json j = check_json(ws, {-std::numeric_limits<double>::infinity()});
  CHECK(j["correct_bits_maxnorm"].is_null());
  CHECK(j["correct_bits_elementwise_min"].is_null());
  CHECK(j["max_ulp_error"].is_null());
  CHECK(j["compared_elements"] == 0);
  CHECK(j["infinity_mismatches"] == 1);
  CHECK(j["bit_identical"] == 0);
  const test::CommandResult text =
      test::run_ozref({"check", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--c", ws.path("c.npy")});
  CHECK(text.out.find("correct bits, max norm        n/a (no element where C and E are both finite)") != std::string::npos);
  CHECK(text.out.find("exact (no error)") == std::string::npos);
}

TEST_CASE("cli: check counts C = inf where the exact E is NaN as a mismatch", "[cli]") {
  Workspace ws;
  const nlohmann::json j = check_json(ws, {std::numeric_limits<double>::infinity()}, true);
  CHECK(j["nan_mismatches"] == 1);
  CHECK(j["bit_identical"] == 0);
  CHECK(j["compared_elements"] == 0);
  CHECK(j["correct_bits_maxnorm"].is_null());
  CHECK(check_json(ws, {std::nan("")}, true)["bit_identical"] == 1);  // NaN where E is NaN matches
}

TEST_CASE("cli: check's JSON keys keep their types from run to run (numbers or null, never strings)", "[cli]") {
  Workspace ws;
  const double inf = std::numeric_limits<double>::infinity();
  // exact; one ulp off; off by a lot; C infinite; E NaN: every case that once gave "inf" strings
  std::vector<nlohmann::json> runs = {check_json(ws, {3.0}), check_json(ws, {std::nextafter(3.0, 4.0)}), check_json(ws, {-1e300}),
                                      check_json(ws, {-inf}), check_json(ws, {inf}, true)};
  const std::set<std::string> nullable = {"correct_bits_maxnorm", "correct_bits_elementwise_min", "max_ulp_error"};
  const std::set<std::string> places = {"worst_maxnorm", "worst_elementwise", "first_special_mismatch"};  // object or null
  std::set<std::string> seen_null, seen_number, seen_object;
  for (const auto& [key, first] : runs[0].items())
    for (const nlohmann::json& run : runs) {
      INFO(key << " in " << run.dump());
      REQUIRE(run.contains(key));
      const nlohmann::json& v = run[key];
      CHECK_FALSE(v.is_string() != first.is_string());
      if (nullable.count(key)) {
        CHECK((v.is_null() || v.is_number()));
        (v.is_null() ? seen_null : seen_number).insert(key);
      } else if (places.count(key)) {
        CHECK((v.is_null() || v.is_object()));
        if (v.is_object()) seen_object.insert(key);
      } else {
        CHECK(v.type() == first.type());
      }
    }
  CHECK(seen_null == nullable);  // the runs above do reach both forms of each nullable key
  CHECK(seen_number == nullable);
  CHECK(seen_object == places);
  CHECK(runs[1]["correct_bits_maxnorm"].get<double>() == Approx(51.0 + std::log2(3.0)).margin(1e-9));  // error 2^-51 against 3
}

TEST_CASE("cli: check --at-least is a gate: exit 1 below the floor, saying by how much and where", "[cli]") {
  Workspace ws;
  check_json(ws, {std::nextafter(3.0, 4.0)});  // one ulp above E = 3: 51 + log2(3) = 52.58 bits
  const std::vector<std::string> base = {"check", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--c", ws.path("c.npy")};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_ozref(args);
  };
  const test::CommandResult pass = with({"--at-least", "52"});
  INFO(pass.out << pass.err);
  CHECK(pass.code == 0);
  CHECK(pass.out.find("gate (--at-least 52) passed: 52.58 correct bits (maxnorm), at least the 52 asked for") != std::string::npos);
  const test::CommandResult fail = with({"--at-least", "53", "--metric", "elementwise"});
  INFO(fail.out << fail.err);
  CHECK(fail.code == 1);
  CHECK(fail.out.find("failed: 52.58 correct bits (elementwise), 0.42 fewer than the 53 asked for; worst element C[0, 0] = "
                      "3.0000000000000004 where the exact product rounds to 3: |C - E| = 2^-51.00 (1 ulps, 52.58 correct bits there)") !=
        std::string::npos);
  const test::CommandResult json = with({"--at-least", "53", "--json"});
  CHECK(json.code == 1);
  const nlohmann::json gate = nlohmann::json::parse(json.out)["gate"];
  CHECK(gate["passed"] == false);
  CHECK(gate["metric"] == "maxnorm");
  CHECK(gate["bits"].get<double>() == Approx(51.0 + std::log2(3.0)).margin(1e-9));
  CHECK(with({"--at-least", "53", "--metric", "median"}).code == 2);
  CHECK(with({"--at-least", "nan"}).code == 2);
  // A NaN where E is finite fails every floor, and the gate names it.
  check_json(ws, {std::nan("")});
  const test::CommandResult nan = with({"--at-least", "-1000"});
  CHECK(nan.code == 1);
  CHECK(nan.out.find("failed: no correct bits (maxnorm) where -1000 were asked for; first at C[0, 0] = nan where the exact product "
                     "rounds to 3 (NaN mismatch; 1 NaN, 0 infinity and 0 zero-reference mismatches in all)") != std::string::npos);
  // An exact C passes any floor.
  check_json(ws, {3.0});
  CHECK(with({"--at-least", "4000"}).code == 0);
}
