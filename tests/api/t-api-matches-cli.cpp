// The public C++ interface (include/ozref/) against the ozref command on the same inputs: the same
// bytes out (C, reports), the same refusals. The command runs in process (cli/cli_support.hpp).
#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_support.hpp"
#include "common/distributions.hpp"
#include "common/rng.hpp"
#include "io/mma_trace.hpp"
#include "io/npy.hpp"
#include "ozref/ozref.hpp"
#include "support.hpp"
#include "workspace.hpp"

namespace ozref {
namespace {

using test::run_ozref;
using test::Workspace;

// Writes a seeded m x k A and k x n B (phi:1, the CLI's default distribution) into the workspace.
struct SavedOperands {
  Matrix<double> a, b;
  std::string a_path, b_path;
};
SavedOperands saved_operands(const Workspace& ws, size_t m, size_t n, size_t k, uint64_t seed) {
  Rng rng(seed);
  const Distribution d = parse_distribution("phi:1");
  SavedOperands o{random_matrix(m, k, d, rng), random_matrix(k, n, d, rng), ws.path("a.npy"), ws.path("b.npy")};
  write_npy(o.a_path, npy_from_matrix(o.a));
  write_npy(o.b_path, npy_from_matrix(o.b));
  return o;
}

api::ArrayRef ref(const Matrix<double>& m, const std::string& name) { return api::matrix(m.data.data(), m.rows, m.cols, name); }

// One thread: the results do not depend on the count, and OpenMP's spinning threads slow small
// runs down a hundredfold on a machine whose cores are all busy (ctest runs tests in parallel).
api::RunOptions one_thread() {
  api::RunOptions o;
  o.threads = 1;
  return o;
}

// A report without its timings, which differ from run to run.
nlohmann::json untimed(nlohmann::json j) {
  if (j.is_object()) {
    for (const char* key : {"seconds", "pipeline_seconds", "verify_seconds"}) j.erase(key);
    for (auto& [key, value] : j.items()) value = untimed(value);
  } else if (j.is_array()) {
    for (auto& value : j) value = untimed(value);
  }
  return j;
}

template <typename T>
bool same_bytes(const std::vector<T>& data, const NpyArray& file) {
  return data.size() * sizeof(T) == file.data.size() && std::memcmp(data.data(), file.data.data(), file.data.size()) == 0;
}

}  // namespace

TEST_CASE("api: exact gives the bytes ozref exact writes, and the integer product", "[api]") {
  Workspace ws;
  const SavedOperands o = saved_operands(ws, 37, 29, 300, test::seed());
  REQUIRE(run_ozref({"exact", "--a", o.a_path, "--b", o.b_path, "--out", ws.path("c.npy")}).code == 0);
  const api::ExactProduct e = api::exact(ref(o.a, o.a_path), ref(o.b, o.b_path));
  CHECK((e.m == 37 && e.n == 29 && e.k == 300));
  CHECK(same_bytes(e.fp64.data, read_npy(ws.path("c.npy"))));
  // An independent oracle: small integers, whose product int64 arithmetic gives exactly.
  std::vector<double> a(6), b(6);
  for (int i = 0; i < 6; ++i) a[i] = i - 2, b[i] = 3 * i + 1;
  const api::ExactProduct small = api::exact(api::matrix(a.data(), 2, 3), api::matrix(b.data(), 3, 2));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) {
      int64_t sum = 0;
      for (int t = 0; t < 3; ++t) sum += int64_t(a[i * 3 + t]) * int64_t(b[t * 2 + j]);
      CHECK(small.fp64(i, j) == double(sum));
      CHECK(small.residual(i, j) == 0.0);
    }
  WARN("api exact: 37x29x300 against the command (seed " << test::seed() << "), 2x2x3 against int64");
}

TEST_CASE("api: check gives the report ozref check --json prints, for f8 and f4 C", "[api]") {
  Workspace ws;
  const SavedOperands o = saved_operands(ws, 24, 31, 130, test::seed() + 1);
  const api::ExactProduct e = api::exact(ref(o.a, "A"), ref(o.b, "B"));
  Matrix<double> c64(24, 31);
  Matrix<float> c32(24, 31);
  for (size_t i = 0; i < c64.size(); ++i) {
    c64.data[i] = e.fp64.data[i] * (1 + 0x1p-40 * double(i % 7));  // a few ulps off here and there
    c32.data[i] = float(e.fp64.data[i]);                             // double rounding: not always round(E)
  }
  write_npy(ws.path("c64.npy"), npy_from_matrix(c64));
  write_npy(ws.path("c32.npy"), npy_from_matrix(c32));
  const api::CheckReport r64 = api::check(ref(o.a, o.a_path), ref(o.b, o.b_path), ref(c64, ws.path("c64.npy")));
  const api::CheckReport r32 = api::check(ref(o.a, o.a_path), ref(o.b, o.b_path),
                                          api::matrix(c32.data.data(), 24, 31, ws.path("c32.npy")));
  CHECK(run_ozref({"check", "--json", "--a", o.a_path, "--b", o.b_path, "--c", ws.path("c64.npy")}).out == r64.json + "\n");
  CHECK(run_ozref({"check", "--json", "--a", o.a_path, "--b", o.b_path, "--c", ws.path("c32.npy")}).out == r32.json + "\n");
  CHECK(r64.c_precision == "fp64");
  CHECK(r32.c_precision == "fp32");
  CHECK(r64.metrics.erring_elements > 0);  // the comparison can tell C from E
  CHECK(r64.metrics.elements == 24 * 31);
}

TEST_CASE("api: run gives the C and the report of ozref run, for each scheme", "[api]") {
  Workspace ws;
  const SavedOperands o = saved_operands(ws, 19, 23, 70, test::seed() + 2);
  size_t schemes = 0;
  for (const std::string& scheme : api::schemes()) {
    const std::string out = ws.path(scheme + ".npy");
    const test::CommandResult cli = run_ozref({"run", "--scheme", scheme, "--a", o.a_path, "--b", o.b_path, "--out", out, "--json", "--threads", "1"});
    INFO(scheme << ": " << cli.err);
    ++schemes;
    if (cli.code == 2) {  // a scheme that refuses these inputs (int8-on-fp4 takes INT8 values): the same words
      const std::string prefix = "ozref run: error: ";
      REQUIRE(cli.err.starts_with(prefix));
      CHECK_THROWS_WITH(api::run(scheme, ref(o.a, o.a_path), ref(o.b, o.b_path), one_thread()), cli.err.substr(prefix.size(), cli.err.size() - prefix.size() - 1));
      continue;
    }
    const api::RunResult r = api::run(scheme, ref(o.a, o.a_path), ref(o.b, o.b_path), one_thread());
    CHECK(cli.code == r.exit_code);
    CHECK(same_bytes(r.c.data, read_npy(out)));
    CHECK(untimed(nlohmann::json::parse(cli.out)) == untimed(nlohmann::json::parse(r.json)));
    CHECK(r.stages.size() == nlohmann::json::parse(r.json)["stages"].size());
  }
  CHECK(schemes >= 7);
  WARN("api run: " << schemes << " schemes, 19x23x70 (seed " << test::seed() + 2 << ")");
}

TEST_CASE("api: run with options and a dump gives the trace ozref run --dump writes", "[api]") {
  Workspace ws;
  const SavedOperands o = saved_operands(ws, 8, 9, 40, test::seed() + 3);
  REQUIRE(run_ozref({"run", "--scheme", "ozaki2-int8", "--moduli", "9", "--a", o.a_path, "--b", o.b_path, "--dump", ws.path("cli"), "--threads", "1"}).code == 0);
  api::RunOptions options = one_thread();
  options.scheme.moduli = 9;
  options.dump = ws.path("api");
  const api::RunResult r = api::run("ozaki2-int8", ref(o.a, o.a_path), ref(o.b, o.b_path), options);
  CHECK(r.exit_code == 0);
  nlohmann::json cli_manifest = nlohmann::json::parse(std::ifstream(ws.path("cli/manifest.json")));
  nlohmann::json api_manifest = nlohmann::json::parse(std::ifstream(ws.path("api/manifest.json")));
  CHECK(nlohmann::json::parse(r.options_json) == cli_manifest["options"]);
  CHECK(cli_manifest["options"]["moduli"] == 9);
  CHECK(cli_manifest["seed"] == 1);  // the command's default seed; the library records none (0)
  CHECK(api_manifest["seed"] == 0);
  cli_manifest.erase("seed"), api_manifest.erase("seed");
  CHECK(cli_manifest == api_manifest);  // every array's name, dtype, shape and hash
  CHECK(cli_manifest["stages"].size() > 3);
}

TEST_CASE("api: verify_trace gives the report ozref verify-trace --json prints", "[api]") {
  Workspace ws;
  const SavedOperands o = saved_operands(ws, 12, 10, 64, test::seed() + 4);
  REQUIRE(run_ozref({"run", "--scheme", "ozaki2-int8", "--a", o.a_path, "--b", o.b_path, "--dump", ws.path("trace"), "--threads", "1"}).code == 0);
  const test::CommandResult cli = run_ozref({"verify-trace", ws.path("trace"), "--json", "--threads", "1"});
  const api::RunResult r = api::verify_trace(ws.path("trace"), {.threads = 1});
  CHECK(cli.code == 0);
  CHECK(r.exit_code == 0);
  CHECK(r.identical);
  CHECK(untimed(nlohmann::json::parse(cli.out)) == untimed(nlohmann::json::parse(r.json)));
  size_t compared = 0;
  for (const api::StageReport& s : r.stages) compared += s.comparison.compared;
  CHECK(compared > 0);
}

TEST_CASE("api: mma gives D that ozref mma-check reproduces, for every sm_90 instruction", "[api]") {
  Workspace ws;
  Rng rng(test::seed() + 5);
  std::ofstream trace(ws.path("records.jsonl"));
  test::CaseCount records("api mma against mma-check");
  MmaRecord last;
  for (const api::Instruction& ins : api::instructions("sm_90")) {
    for (int r = 0; r < 20; ++r) {
      MmaRecord rec;
      rec.op = ins.op;
      rec.a.resize(ins.operand_bytes), rec.b.resize(ins.operand_bytes);
      for (auto* v : {&rec.a, &rec.b})
        for (uint8_t& byte : *v) byte = uint8_t(rng.next() & 0x77);  // finite E4M3, E5M2 and halves, mostly
      rec.c = uint32_t(rng.next() & 0x3FFFFFFF);
      rec.d = api::mma(ins.op, {.a = rec.a, .b = rec.b, .c = rec.c});
      trace << format_mma_record(rec) << "\n";
      last = rec;
      ++records;
    }
  }
  last.d ^= 1;  // one record the command must not reproduce
  trace << format_mma_record(last) << "\n";
  trace.close();
  const test::CommandResult cli = run_ozref({"mma-check", "--arch", "sm_90", "--trace", ws.path("records.jsonl")});
  const std::string expected = "total: " + std::to_string(records.count + 1) + " records, " + std::to_string(records.count) +
                               " matched, 1 mismatched";
  CHECK(cli.out.find(expected) != std::string::npos);
  CHECK(cli.code == 1);
  records.report(100);
}

TEST_CASE("api: mma on a batch equals one element at a time, and sizes are checked", "[api]") {
  const std::string op = "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32";
  const api::Instruction ins = api::instruction(op);
  REQUIRE(ins.k == 32);
  Rng rng(test::seed() + 6);
  std::vector<uint8_t> a(3 * 32), b(3 * 32);
  for (auto& v : a) v = uint8_t(rng.next());
  for (auto& v : b) v = uint8_t(rng.next());
  const std::vector<uint32_t> c = {0, 0x7FFFFFF0u, 0x80000000u};
  const std::vector<uint32_t> d = api::mma(op, api::MmaBatch{.a = a, .b = b, .c = c});
  for (size_t i = 0; i < 3; ++i) {
    int64_t sum = int32_t(c[i]);  // the integer oracle: s8 x s8 summed exactly, wrapped to 32 bits
    for (size_t t = 0; t < 32; ++t) sum += int64_t(int8_t(a[i * 32 + t])) * int8_t(b[i * 32 + t]);
    CHECK(d[i] == uint32_t(uint64_t(sum)));
    CHECK(d[i] == api::mma(op, {.a = std::span(a).subspan(i * 32, 32), .b = std::span(b).subspan(i * 32, 32), .c = c[i]}));
  }
  CHECK_THROWS_WITH(api::mma(op, api::MmaBatch{.a = std::span(a).first(95), .b = b, .c = c}), Catch::Contains("a must hold 3 x 32 bytes, got 95"));
  // c with a row too few or too many: c is named, not a
  CHECK_THROWS_WITH(api::mma(op, api::MmaBatch{.a = a, .b = b, .c = std::span(c).first(2)}),
                    Catch::Contains("c holds 2 accumulators, but a and b hold the operands of 3 elements (32 bytes each)"));
  CHECK_THROWS_WITH(api::mma(op, api::MmaBatch{.a = std::span(a).first(64), .b = std::span(b).first(64), .c = c}),
                    Catch::Contains("c holds 3 accumulators, but a and b hold the operands of 2 elements"));
  CHECK_THROWS_WITH(api::mma(op, api::MmaBatch{.a = a, .b = std::span(b).first(64), .c = c}), Catch::Contains("b must hold 3 x 32 bytes, got 64"));
  CHECK_THROWS_WITH(api::mma("mma.sync.nonsense", api::MmaOperands{.a = a, .b = b}), Catch::Contains("does not model the instruction 'mma.sync.nonsense'"));
}

TEST_CASE("api: bad input raises the command's message", "[api]") {
  Workspace ws;
  Matrix<double> a(2, 3, 1.0), b(4, 2, 1.0), c(2, 2, 1.0);
  write_npy(ws.path("a.npy"), npy_from_matrix(a));
  write_npy(ws.path("b.npy"), npy_from_matrix(b));
  write_npy(ws.path("c.npy"), npy_from_matrix(c));
  const auto message = [](const std::function<void()>& f) {
    try {
      f();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no InputError");
  };
  const std::string cli = run_ozref({"check", "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--c", ws.path("c.npy")}).err;
  const std::string lib = message([&] { api::check(ref(a, ws.path("a.npy")), ref(b, ws.path("b.npy")), ref(c, ws.path("c.npy"))); });
  CHECK(cli == "ozref check: error: " + lib + "\n");
  CHECK_THAT(lib, Catch::StartsWith("shapes do not agree"));
  const std::vector<int32_t> ints(6);
  const std::string dtype = message([&] { api::exact({api::Dtype::i4, ints.data(), {2, 3}, "ints"}, ref(b, "B")); });
  CHECK(dtype == "ints: expected dtype f8, f4 or c16, got i4");
  const Matrix<double> b3(3, 2, 1.0);
  CHECK_THAT(message([&] { api::run("nosuch", ref(a, "A"), ref(b3, "B")); }), Catch::StartsWith("scheme 'nosuch' is not implemented"));
  CHECK_THAT(message([&] { api::exact({api::Dtype::f8, nullptr, {2, 2}, "P"}, ref(b, "B")); }), Catch::StartsWith("P: no data"));
  CHECK(message([&] { api::check(ref(a, "A"), ref(b3, "B"), ref(c, "C"), -1); }) == "threads: -1 is not in [0, 1024] (0: every core)");
}

TEST_CASE("api: lockstep without a GPU says why, and refuses bad options first", "[api]") {
  const Matrix<double> a(4, 8, 0.5), b(8, 3, 0.25);
  const test::CommandResult cli = run_ozref({"lockstep", "--m", "4", "--n", "3", "--k", "8"});
  const api::LockstepResult r = api::lockstep("ozaki2-int8", ref(a, "A"), ref(b, "B"));
  if (cli.code == 77) {
    CHECK_FALSE(r.available);
    CHECK(cli.out.find(r.why_not) != std::string::npos);
    CHECK_FALSE(r.why_not.empty());
  } else {
    CHECK(r.available);
    CHECK(r.result.exit_code == 0);
  }
  api::LockstepOptions bad;
  bad.lockstep = "sideways";
  CHECK_THROWS_WITH(api::lockstep("ozaki2-int8", ref(a, "A"), ref(b, "B"), bad), "unknown --lockstep 'sideways' (known: resync, free)");
}

TEST_CASE("api: exact and check on a device: the GPU's bytes are the command's, or the command's reason for none", "[api]") {
  Workspace ws;
  const SavedOperands o = saved_operands(ws, 19, 23, 70, test::seed() + 7);
  const api::ArrayRef a = ref(o.a, o.a_path), b = ref(o.b, o.b_path);
  CHECK(api::exact(a, b, 1, "cpu").fp64.data == api::exact(a, b, 1).fp64.data);
  const test::CommandResult cli = run_ozref({"exact", "--device", "gpu", "--a", o.a_path, "--b", o.b_path, "--out", ws.path("c.npy")});
  if (cli.code == 77) {  // no usable GPU: the API raises the command's reason
    CHECK_THROWS_AS(api::exact(a, b, 1, "gpu"), InputError);
    CHECK_THROWS_AS(api::check(a, b, ref(o.a, "C"), 1, std::nullopt, "gpu"), InputError);
  } else {
    REQUIRE(cli.code == 0);
    CHECK(same_bytes(api::exact(a, b, 1, "gpu").fp64.data, read_npy(ws.path("c.npy"))));
    const Matrix<double> c(19, 23, 0.5);
    CHECK(api::check(a, b, ref(c, "C"), 1, std::nullopt, "gpu").json == api::check(a, b, ref(c, "C"), 1).json);
  }
  CHECK_THROWS_WITH(api::exact(a, b, 1, "tpu"), "device: expected cpu or gpu, got 'tpu'");
  CHECK_THROWS_WITH(api::check(a, b, ref(o.a, "C"), 1, std::nullopt, "tpu"), "device: expected cpu or gpu, got 'tpu'");
  WARN("api exact/check on a device: 19x23x70 (seed " << test::seed() + 7 << "), GPU " << (cli.code == 77 ? "absent" : "present"));
}

}  // namespace ozref
