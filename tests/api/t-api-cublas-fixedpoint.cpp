// cublas-fixedpoint@13.1 through the public C++ interface: SchemeOptions' mantissa_bits and kblock
// reach the scheme (C bit for bit the output cuBLAS 13.1 recorded on the H200, tests/data/cublas),
// and bad values get the command's refusals.
#include <bit>
#include <catch2/catch.hpp>
#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "io/npy.hpp"
#include "ozref/ozref.hpp"
#include "schemes/cublas_fixedpoint/kblock.hpp"
#include "workspace.hpp"

namespace ozref {
namespace {

std::string cublas_data(const std::string& file) {
  const char* data = std::getenv("OZREF_TEST_DATA");
  REQUIRE(data);
  return std::string(data) + "/cublas/" + file;
}

Matrix<double> load(const std::string& path) { return matrix_from_npy(read_npy(path), path); }

api::ArrayRef ref(const Matrix<double>& m, const std::string& name) { return api::matrix(m.data.data(), m.rows, m.cols, name); }

// The library's C for a probe case's A and B at `bits` (and `kblock`, 0: the fitted rule) against
// the recorded C, every element's bit pattern; returns the elements compared.
size_t require_recorded_c(const std::string& name, int bits, size_t kblock) {
  const Matrix<double> a = load(cublas_data(name + "_A.npy")), b = load(cublas_data(name + "_B.npy"));
  const Matrix<double> want = load(cublas_data(name + "_fixed" + std::to_string(bits) + "_C.npy"));
  api::RunOptions options;
  options.threads = 1;
  options.verify = "none";  // the oracle is the recorded output; the stages' contracts are tested elsewhere
  options.scheme.mantissa_bits = std::to_string(bits);
  options.scheme.kblock = kblock;
  const api::RunResult r = api::run("cublas-fixedpoint@13.1", ref(a, "A"), ref(b, "B"), options);
  REQUIRE(r.c.rows == want.rows);
  REQUIRE(r.c.cols == want.cols);
  for (size_t v = 0; v < want.data.size(); ++v) {
    const uint64_t got = std::bit_cast<uint64_t>(r.c.data[v]), h200 = std::bit_cast<uint64_t>(want.data[v]);
    if (got != h200) {
      char bits_text[80];
      std::snprintf(bits_text, sizeof bits_text, "0x%016" PRIx64 ", H200 0x%016" PRIx64, got, h200);
      FAIL(name << " fixed " << bits << ": C(" << v / want.cols << ", " << v % want.cols << ") differs: api " << bits_text);
    }
  }
  CHECK(nlohmann::json::parse(r.resolved_json)["mantissa_bits"] == bits);
  if (kblock) CHECK(nlohmann::json::parse(r.options_json)["kblock"] == kblock);
  return want.data.size();
}

}  // namespace

TEST_CASE("api: run takes cublas-fixedpoint@13.1's mantissa bits and K-block: the H200's recorded C bit for bit", "[api]") {
  // row_scale is recorded whole: the fitted K-block rule applies (kblock 0). accumulate keeps rows
  // 0..31 of 256 (tests/data/cublas/README.md): the K-block is the whole shape's, given explicitly.
  const size_t row_scale = require_recorded_c("row_scale", 55, 0);
  const size_t accumulate = require_recorded_c("accumulate", 47, schemes::cublas_fixedpoint::kblock_size(256, 8, 4096));
  CHECK(row_scale == 568);
  CHECK(accumulate == 256);
  WARN("api cublas-fixedpoint@13.1: row_scale 55 bits (" << row_scale << " elements), accumulate 47 bits with --kblock ("
                                                           << accumulate << " elements) bit-identical to the H200");
}

TEST_CASE("api: cublas-fixedpoint@13.1's bad mantissa bits and K-block raise the command's message", "[api]") {
  const Matrix<double> a(4, 8, 0.5), b(8, 3, 0.25);
  test::Workspace ws;
  write_npy(ws.path("a.npy"), npy_from_matrix(a));
  write_npy(ws.path("b.npy"), npy_from_matrix(b));
  size_t refusals = 0;
  const auto same_refusal = [&](const std::string& scheme, const std::string& bits, size_t kblock) {
    std::vector<std::string> args = {"run", "--scheme", scheme, "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--verify", "none"};
    if (!bits.empty()) args.insert(args.end(), {"--mantissa-bits", bits});
    if (kblock) args.insert(args.end(), {"--kblock", std::to_string(kblock)});
    const test::CommandResult cli = test::run_ozref(args);
    INFO(scheme << " bits '" << bits << "' kblock " << kblock << ": " << cli.err);
    REQUIRE(cli.code == 2);
    api::RunOptions options;
    options.scheme.mantissa_bits = bits;
    options.scheme.kblock = kblock;
    std::string lib = "no InputError";
    try {
      api::run(scheme, ref(a, ws.path("a.npy")), ref(b, ws.path("b.npy")), options);
    } catch (const InputError& e) {
      lib = e.what();
    }
    CHECK(cli.err == "ozref run: error: " + lib + "\n");
    ++refusals;
    return lib;
  };
  CHECK_THAT(same_refusal("cublas-fixedpoint@13.1", "22", 0), Catch::Contains("--mantissa-bits must be an integer 23..79"));
  CHECK_THAT(same_refusal("cublas-fixedpoint@13.1", "128", 0), Catch::Contains("got '128'"));
  CHECK_THAT(same_refusal("cublas-fixedpoint@13.1", "dynamic:dynamic:55", 0), Catch::Contains("got 'dynamic:dynamic:55'"));
  CHECK_THAT(same_refusal("cublas-fixedpoint@13.1", "", 16), Catch::Contains("needs --mantissa-bits"));
  CHECK_THAT(same_refusal("ozaki2-fp8", "", 16), Catch::Contains("kblock"));  // K-blocks: ozaki2-int8 and cuBLAS only
  CHECK_THAT(same_refusal("ozaki2-int8", "31", 0), Catch::Contains("mantissa-bits"));
  CHECK(refusals == 6);
}

}  // namespace ozref
