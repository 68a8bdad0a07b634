// The exact and check verbs end to end on files: JSON keys, exit codes, and bad input refused.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/verbs.hpp"
#include "common/distributions.hpp"
#include "common/error.hpp"
#include "exact/rational_oracle.hpp"
#include "io/npy.hpp"
#include "support.hpp"

using namespace ozref;

namespace {
struct Workspace {
  std::filesystem::path dir;
  Workspace() {
    dir = std::filesystem::temp_directory_path() / ("ozref-cli-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  ~Workspace() { std::filesystem::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
};
}  // namespace

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
  for (const char* key : {"m", "n", "k", "elements", "bit_identical", "correct_bits_maxnorm",
                          "correct_bits_elementwise_min", "max_ulp_error", "zero_reference_elements",
                          "zero_reference_mismatches", "nan_mismatches"})
    REQUIRE(j.contains(key));
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
