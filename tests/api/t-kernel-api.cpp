// The interface a kernel author uses (include/ozref/schema.hpp, trace_writer.hpp,
// verify_stages.hpp): the schema against the command's and against number theory, and a run's own
// dumped arrays handed back through TraceWriter and verify_stages as a kernel would hand its own.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gmpxx.h>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "io/npy.hpp"
#include "ozref/ozref.hpp"
#include "support.hpp"
#include "workspace.hpp"

namespace ozref {
namespace {

const std::vector<int64_t> kOwnModuli = {256, 251, 241, 239, 233};

api::SchemeOptions own_moduli() {
  api::SchemeOptions o;
  o.mode = "fast";
  o.moduli_list = kOwnModuli;
  return o;
}

// The arrays of stage `stage` of a dumped trace, as a kernel would hand them over.
std::vector<NpyArray> dumped(const std::filesystem::path& dir, const std::string& stage, std::vector<std::string>& names) {
  const nlohmann::json m = nlohmann::json::parse(std::ifstream(dir / "manifest.json"));
  std::vector<NpyArray> out;
  for (const auto& s : m.at("stages"))
    if (s.at("name") == stage)
      for (const auto& a : s.at("arrays")) {
        names.push_back(a.at("name").get<std::string>());
        out.push_back(read_npy((dir / a.at("file").get<std::string>()).string()));
      }
  return out;
}

api::ArrayRef view(const NpyArray& a) {
  static const api::Dtype by_size[] = {api::Dtype::i1, api::Dtype::i2, api::Dtype::i2, api::Dtype::i4, api::Dtype::i4,
                                       api::Dtype::i4, api::Dtype::i4, api::Dtype::i8};
  const api::Dtype d = a.dtype == DType::F8 ? api::Dtype::f8 : by_size[dtype_size(a.dtype) - 1];
  return {d, a.data.data(), a.shape, "array"};
}

TEST_CASE("api: schema is the command's, and its CRT weights are the CRT's idempotents", "[api]") {
  const api::Schema s = api::schema("ozaki2-int8", 5, 3, 16, own_moduli());
  const test::CommandResult cli = test::run_ozref({"schema", "--scheme", "ozaki2-int8", "--mode", "fast", "--moduli-list", "256,251,241,239,233",
                                                   "--m", "5", "--n", "3", "--k", "16", "--json"});
  REQUIRE(cli.code == 0);
  CHECK(cli.out == s.json + "\n");
  REQUIRE(s.moduli == kOwnModuli);
  mpz_class P = 1;
  for (int64_t p : kOwnModuli) P *= p;
  CHECK(mpz_class(s.p) == P);
  for (size_t i = 0; i < kOwnModuli.size(); ++i)
    for (size_t j = 0; j < kOwnModuli.size(); ++j)
      CHECK(mpz_class(mpz_class(s.crt_weights[i]) % kOwnModuli[j]) == (i == j ? 1 : 0));
  CHECK(s.max_k == 131071);  // K 128^2 < 2^31
  std::vector<std::string> names;
  for (const api::SchemaStage& st : s.stages) names.push_back(st.name);
  CHECK(names == std::vector<std::string>{"scale", "truncate", "residues", "gemm", "reduce", "crt", "unscale"});
  std::printf("api schema: %zu weights checked against P (seed %llu)\n", kOwnModuli.size(), static_cast<unsigned long long>(test::seed()));
}

TEST_CASE("api: a run's own arrays handed back through TraceWriter and verify_stages verify; a wrong residue is named", "[api]") {
  test::Workspace ws;
  std::vector<double> a(5 * 16), b(16 * 3);
  for (size_t v = 0; v < a.size(); ++v) a[v] = std::ldexp(double(int64_t(v * 7919 % 97) - 48), -int(v % 5));
  for (size_t v = 0; v < b.size(); ++v) b[v] = std::ldexp(double(int64_t(v * 104729 % 89) - 44), int(v % 3));
  const api::ArrayRef ra = api::matrix(a.data(), 5, 16, "A"), rb = api::matrix(b.data(), 16, 3, "B");
  REQUIRE(api::run("ozaki2-int8", ra, rb, {.scheme = own_moduli(), .dump = (ws.dir / "ours").string()}).exit_code == 0);
  std::vector<std::vector<NpyArray>> held;
  std::vector<api::StageArray> stages;
  api::TraceWriter writer((ws.dir / "theirs").string(), "ozaki2-int8", 5, 3, 16, own_moduli());
  for (const std::string stage : {"input", "scale", "truncate", "residues", "gemm", "reduce", "crt", "unscale"}) {
    std::vector<std::string> names;
    held.push_back(dumped(ws.dir / "ours", stage, names));
    for (size_t x = 0; x < names.size(); ++x) {
      writer.add(stage, names[x], view(held.back()[x]));
      if (stage != "input") stages.push_back({stage, names[x], view(held.back()[x])});
    }
  }
  writer.finish();
  CHECK(api::verify_trace((ws.dir / "theirs").string()).exit_code == 0);
  CHECK(api::verify_stages("ozaki2-int8", ra, rb, stages, {.scheme = own_moduli()}).exit_code == 0);
  NpyArray& residues = held[3][0];  // residues.a, N x m x k, i1
  residues.data[1 * 5 * 16 + 2 * 16 + 7] ^= 0x40;  // modulus 251, row 2, k 7
  const api::RunResult bad = api::verify_stages("ozaki2-int8", ra, rb, stages, {.scheme = own_moduli()});
  CHECK(bad.exit_code == 1);
  REQUIRE(bad.stages[2].name == "residues");
  CHECK(bad.stages[2].first_violation.rfind("residues.a[modulus 251, i 2, k 7]: found ", 0) == 0);
}

TEST_CASE("api: TraceWriter names the stage, the array and the schema's dtype and shape", "[api]") {
  test::Workspace ws;
  api::TraceWriter w((ws.dir / "t").string(), "ozaki2-int8", 4, 3, 2, own_moduli());
  const std::vector<double> c(5 * 4 * 3, 0.0);
  try {
    w.add("gemm", "c", {api::Dtype::f8, c.data(), {5, 4, 3}, "c"});
    FAIL("a wrong dtype was taken");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) == "gemm.c is f8 [5,4,3]; the scheme's is i4 [5,4,3] (G x m x n)");
  }
  CHECK_THROWS_WITH(api::schema("ozaki2-int8", 2, 2, 2, {.moduli_list = {255, 85}}),
                    "ozaki2-int8: --moduli-list is not pairwise coprime: 255 and 85 share the factor 85");
}

}  // namespace
}  // namespace ozref
