// cublas-fixedpoint@13.1 against cuBLAS 13.1 itself: every output recorded on the H200 and copied
// into tests/data (the probe records of tests/data/cublas, cublas_emu_probe seed 1, and the
// cublasemu<B> outputs of tests/data/third-party, on the five input cases of docs/third-party.md,
// regenerated here) replayed through `ozref run --scheme
// cublas-fixedpoint@13.1 --mantissa-bits B` in process and compared bit for bit, every element; the
// K-block rule against the 210 shapes cublas_kblock_probe measured and the near-2 bump against its
// near2 lines; the DYNAMIC count rule against the counts cuBLAS reported (probe_cases.txt and
// cublas_kblock_probe dynamic-count) and --mantissa-bits dynamic against the DYNAMIC records; the
// refusals of bad option values.
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "cli/cli_support.hpp"
#include "io/npy.hpp"
#include "common/error.hpp"
#include "schemes/cublas_fixedpoint/dynamic_count.hpp"
#include "schemes/cublas_fixedpoint/kblock.hpp"
#include "support.hpp"
#include "third_party_inputs.hpp"
#include "trace_support.hpp"

using namespace ozref;

namespace {

std::string data_dir() {
  const char* data = std::getenv("OZREF_TEST_DATA");
  REQUIRE(data);
  return data;
}

Matrix<double> load(const std::string& path) { return matrix_from_npy(read_npy(path), path); }

// What the records hold, for the counts each test asserts.
struct Tally {
  size_t records = 0, elements = 0;
};

// `ozref run --scheme cublas-fixedpoint@13.1 --mantissa-bits bits [--kblock kblock] --a a --b b
// --out out --verify none`, in process (tests/cli/cli_support.hpp). The replays' oracle is the
// recorded output; the stages' contracts are tested in t-verify-trace.cpp. --out is first filled
// with NaN (a canary: an element the run did not write cannot pass).
Matrix<double> ozref_run(const std::string& a, const std::string& b, const std::string& bits, size_t kblock, const std::string& out, size_t m,
                         size_t n) {
  Matrix<double> canary(m, n);
  std::fill(canary.data.begin(), canary.data.end(), std::nan(""));
  write_npy(out, npy_from_matrix(canary));
  std::vector<std::string> args = {"run", "--scheme", "cublas-fixedpoint@13.1", "--mantissa-bits", bits, "--a", a, "--b", b, "--out", out, "--verify", "none"};
  if (kblock) args.insert(args.end(), {"--kblock", std::to_string(kblock)});
  const test::CommandResult r = test::run_ozref(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return load(out);
}

// Every element of `got` bit-identical to the recorded `want`; the first that is not fails the
// test with its index and both bit patterns.
void require_bit_identical(const Matrix<double>& got, const Matrix<double>& want, const std::string& label, Tally& tally) {
  REQUIRE(got.rows == want.rows);
  REQUIRE(got.cols == want.cols);
  for (size_t v = 0; v < want.data.size(); ++v) {
    const uint64_t g = std::bit_cast<uint64_t>(got.data[v]), w = std::bit_cast<uint64_t>(want.data[v]);
    if (g != w) {
      char bits[160];
      std::snprintf(bits, sizeof bits, "0x%016" PRIx64 " (%a), H200 0x%016" PRIx64 " (%a)", g, got.data[v], w, want.data[v]);
      FAIL(label << ": C(" << v / want.cols << ", " << v % want.cols << ") differs: ozref " << bits);
    }
  }
  ++tally.records;
  tally.elements += want.data.size();
}

// A probe case of probe_cases.txt: its whole shape and the bit count cuBLAS reported for its
// DYNAMIC run.
struct ProbeCase {
  std::string name;
  size_t m, n, k;
  int dynamic_bits;
};

std::vector<ProbeCase> probe_cases() {
  std::ifstream in(data_dir() + "/cublas/probe_cases.txt");
  REQUIRE(in);
  std::vector<ProbeCase> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    ProbeCase c{};
    fields >> c.name >> c.m >> c.n >> c.k;
    for (std::string f; fields >> f;)
      if (f.rfind("dynamic=", 0) == 0) c.dynamic_bits = std::stoi(f.substr(8));
    REQUIRE(c.dynamic_bits > 0);
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

TEST_CASE("cublas-fixedpoint@13.1 reproduces the H200 probe records bit for bit: every fixed setting, DYNAMIC at the reported count", "[schemes]") {
  const test::TempDir dir("cublas-probe");
  const std::string data = data_dir() + "/cublas/";
  Tally fixed, dynamic;
  for (const ProbeCase& c : probe_cases()) {
    const std::string a = data + c.name + "_A.npy", b = data + c.name + "_B.npy";
    const size_t rows = load(a).rows;
    // A row subset (README.md there) keeps each row's scales but not the whole shape's K-block
    // size: the rule is given that shape's.
    const size_t kblock = rows == c.m ? 0 : schemes::cublas_fixedpoint::kblock_size(c.m, c.n, c.k);
    for (int bits = 23; bits <= 79; bits += 8) {
      const Matrix<double> want = load(data + c.name + "_fixed" + std::to_string(bits) + "_C.npy");
      require_bit_identical(ozref_run(a, b, std::to_string(bits), kblock, dir / "c.npy", want.rows, want.cols), want,
                            c.name + " fixed " + std::to_string(bits), fixed);
    }
    // DYNAMIC: the same algorithm at the count cuBLAS reported for the run (docs/third-party.md).
    const Matrix<double> want = load(data + c.name + "_dynamic_C.npy");
    require_bit_identical(ozref_run(a, b, std::to_string(c.dynamic_bits), kblock, dir / "c.npy", want.rows, want.cols), want,
                          c.name + " dynamic (reported " + std::to_string(c.dynamic_bits) + " bits)", dynamic);
  }
  WARN("probe records, fixed 23..79: " << fixed.records << " records, " << fixed.elements << " elements bit-identical");
  WARN("probe records, DYNAMIC at the reported count: " << dynamic.records << " records, " << dynamic.elements << " elements bit-identical");
  CHECK(fixed.records == 56);
  CHECK(fixed.elements == 72576);
  CHECK(dynamic.records == 7);
  CHECK(dynamic.elements == 9072);
}

namespace {

// The inputs of make_inputs.py written where `ozref run` can read them, as the script writes them
// (values, not layout: C order here).
std::pair<std::string, std::string> write_inputs(const test::ThirdPartyCase& c, const test::TempDir& dir) {
  const std::string a = dir / (c.name + "_A.npy"), b = dir / (c.name + "_B.npy");
  write_npy(a, npy_from_matrix(c.a));
  write_npy(b, npy_from_matrix(c.b));
  return {a, b};
}

}  // namespace

TEST_CASE("cublas-fixedpoint@13.1 reproduces cuBLAS's recorded emulation outputs bit for bit at every fixed setting", "[schemes]") {
  const test::TempDir dir("cublas-third-party");
  Tally tally;
  for (const test::ThirdPartyCase& c : test::third_party_cases()) {
    const auto [a, b] = write_inputs(c, dir);
    for (int bits = 23; bits <= 79; bits += 8) {
      const Matrix<double> want = load(data_dir() + "/third-party/" + c.name + "_cublasemu" + std::to_string(bits) + "_C.npy");
      REQUIRE(want.rows == c.m);
      REQUIRE(want.cols == c.n);
      require_bit_identical(ozref_run(a, b, std::to_string(bits), 0, dir / "c.npy", c.m, c.n), want, c.name + " cublasemu" + std::to_string(bits),
                            tally);
    }
  }
  WARN("cublasemu23..79 of the five recorded cases: " << tally.records << " records, " << tally.elements << " elements bit-identical");
  CHECK(tally.records == 40);
  CHECK(tally.elements == 339968);
}

// The DYNAMIC runs of the recorded cases did not record their bit count; each output equals a
// fixed setting's record (docs/third-party.md): replayed at the lowest such setting, which says
// which slice count the DYNAMIC control chose, not the count itself.
TEST_CASE("cublas-fixedpoint@13.1 reproduces cuBLAS's recorded DYNAMIC outputs at the fixed setting whose record they equal", "[schemes]") {
  const std::map<std::string, int> equal_setting = {{"randn_96x80x3000", 63}, {"phi2_128x64x4096", 71}, {"int127_64x64x8192", 47},
                                                    {"small_positive_128x128x1024", 63}, {"rowscaled_64x96x2048", 63}};
  const test::TempDir dir("cublas-third-party-dynamic");
  Tally tally;
  for (const test::ThirdPartyCase& c : test::third_party_cases()) {
    const auto [a, b] = write_inputs(c, dir);
    const int bits = equal_setting.at(c.name);
    const Matrix<double> want = load(data_dir() + "/third-party/" + c.name + "_cublasemuDyn_C.npy");
    require_bit_identical(ozref_run(a, b, std::to_string(bits), 0, dir / "c.npy", c.m, c.n), want,
                          c.name + " cublasemuDyn at " + std::to_string(bits) + " bits", tally);
  }
  WARN("cublasemuDyn of the five recorded cases: " << tally.records << " records, " << tally.elements << " elements bit-identical");
  CHECK(tally.records == 5);
  CHECK(tally.elements == 42496);
}

TEST_CASE("cublas-fixedpoint@13.1's K-block rule gives every size cublas_kblock_probe measured", "[schemes]") {
  std::ifstream in(data_dir() + "/cublas/cublas_kblock_probe.txt");
  REQUIRE(in);
  size_t shapes = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("blk ", 0) != 0) continue;
    // "blk m n k b23:X(23) b79:Y(79)": X = Y = kb - 1 (K - 1 where K is one block), each run
    // reporting the count asked for.
    size_t m = 0, n = 0, k = 0;
    int low = 0, high = 0, low_reported = 0, high_reported = 0;
    INFO(line);
    REQUIRE(std::sscanf(line.c_str(), "blk %zu %zu %zu b23:%d(%d) b79:%d(%d)", &m, &n, &k, &low, &low_reported, &high, &high_reported) == 7);
    REQUIRE(low == high);
    REQUIRE(low_reported == 23);
    REQUIRE(high_reported == 79);
    CHECK(std::min(schemes::cublas_fixedpoint::kblock_size(m, n, k), k) == static_cast<size_t>(low) + 1);
    ++shapes;
  }
  WARN("K-block rule against cublas_kblock_probe: " << shapes << " shapes");
  CHECK(shapes == 210);
}

namespace {

// The probe's near-2 lines (cublas_kblock_probe.cu, near_two): A = a_i = 2 - 2^-6 + (i - centre)
// 2^-step (count x 1), B = 1, 23 bits; what the recorded line says of the i whose output differs
// from a_i, against ozref's: "near2 23: i ..." (the list) or "near2fine 23: first F count C".
std::string near_two_line(const std::string& tag, int count, int centre, int step, const test::TempDir& dir) {
  Matrix<double> a(static_cast<size_t>(count), 1), b(1, 1);
  for (int i = 0; i < count; ++i) a.data[static_cast<size_t>(i)] = 2 - std::ldexp(1.0, -6) + (i - centre) * std::ldexp(1.0, -step);
  b.data[0] = 1;
  write_npy(dir / "a.npy", npy_from_matrix(a));
  write_npy(dir / "b.npy", npy_from_matrix(b));
  const Matrix<double> c = ozref_run(dir / "a.npy", dir / "b.npy", "23", 0, dir / "c.npy", a.rows, 1);
  std::string list;
  int first = -1, differing = 0;
  for (int i = 0; i < count; ++i)
    if (c.data[static_cast<size_t>(i)] != a.data[static_cast<size_t>(i)]) {
      list += " " + std::to_string(i);
      first = first < 0 ? i : first, ++differing;
    }
  return tag == "near2" ? "near2 23:" + list : "near2fine 23: first " + std::to_string(first) + " count " + std::to_string(differing);
}

}  // namespace

TEST_CASE("cublas-fixedpoint@13.1's near-2 bump gives the probe's near2 and near2fine lines", "[schemes]") {
  const test::TempDir dir("cublas-near2");
  std::ifstream in(data_dir() + "/cublas/cublas_kblock_probe.txt");
  REQUIRE(in);
  std::map<std::string, std::string> recorded;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("near2", 0) == 0) recorded[line.substr(0, line.find(' '))] = line;
  REQUIRE(recorded.size() == 2);
  // The threshold t = 127/64 gives "first 6145 count 1024"; 256/129 would give "first 6653 count 770".
  CHECK(near_two_line("near2", 512, 256, 21, dir) == recorded["near2"]);
  CHECK(near_two_line("near2fine", 8192, 6144, 22, dir) == recorded["near2fine"]);
  WARN("near2 lines: 8704 elements at 23 bits, both lines as recorded");
}

TEST_CASE("cublas-fixedpoint@13.1 DYNAMIC where every block holds a zero in both lines: 4249 bits, the native fallback", "[schemes]") {
  // A = [1 0; 1 0], B = [0 0; 1 1]: every product is 0 under nonzero lines; cuBLAS reported 4249
  // (the probe's zero line), a count above every max, so it runs native FP64: C = 0.
  const test::TempDir dir("cublas-no-estimate");
  Matrix<double> a(2, 2), b(2, 2);
  a.data = {1, 0, 1, 0}, b.data = {0, 0, 1, 1};
  write_npy(dir / "a.npy", npy_from_matrix(a));
  write_npy(dir / "b.npy", npy_from_matrix(b));
  CHECK(schemes::cublas_fixedpoint::dynamic_bit_count(a.data.data(), b.data.data(), 2, 2, 2) == 4249);
  const test::CommandResult r = test::run_ozref(
      {"run", "--scheme", "cublas-fixedpoint@13.1", "--mantissa-bits", "dynamic", "--a", dir / "a.npy", "--b", dir / "b.npy", "--out", dir / "c.npy"});
  CHECK(r.code == 0);
  const Matrix<double> c = load(dir / "c.npy");
  CHECK(c.data == std::vector<double>{0, 0, 0, 0});
}

TEST_CASE("cublas-fixedpoint@13.1 refuses bad option values with exit 2, naming the option", "[schemes]") {
  const std::vector<std::string> shape = {"--m", "2", "--n", "2", "--k", "3"};
  auto run = [&](std::vector<std::string> options) {
    std::vector<std::string> args = {"run", "--scheme", "cublas-fixedpoint@13.1"};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), shape.begin(), shape.end());
    return test::run_ozref(args);
  };
  test::CaseCount cases("refused option values");
  for (const char* bad : {"22", "128", "0", "-5", "+55", "55.0", "5e1", "0x20", " 55", "55 ", "abc", "1000", "0000"}) {
    INFO("--mantissa-bits '" << bad << "'");
    const test::CommandResult r = run({"--mantissa-bits", bad});
    CHECK(r.code == 2);
    CHECK(r.err == "ozref run: error: cublas-fixedpoint@13.1: --mantissa-bits must be an integer 23..79 (cuBLAS's FIXED control; it accepts up "
                   "to 127), dynamic, or dynamic:N[:MAX] (a DYNAMIC run's count N, 0..1048576, under its max mantissa bit count MAX, 1..127 "
                   "or 0: cuBLAS's default, 79); got '" + std::string(bad) + "'\n");
    ++cases;
  }
  for (const char* bad : {"dynamic:dynamic:55", "dynamic:-1", "dynamic:1048577", "dynamic:94:128", "dynamic:94:", "dynamic:94:127:1"}) {
    INFO("--mantissa-bits '" << bad << "'");
    const test::CommandResult nested = run({"--mantissa-bits", bad});
    CHECK(nested.code == 2);
    CHECK_THAT(nested.err, Catch::Contains("--mantissa-bits must be an integer 23..79"));
  }
  const test::CommandResult missing = run({});
  CHECK(missing.code == 2);
  CHECK_THAT(missing.err, Catch::Contains("cublas-fixedpoint@13.1 needs --mantissa-bits: 23..79"));
  const test::CommandResult kblock = run({"--mantissa-bits", "55", "--kblock", "0"});
  CHECK(kblock.code == 2);
  CHECK_THAT(kblock.err, Catch::Contains("--kblock: '0' is not an integer in [1, 2147483647]"));
  const test::CommandResult other = test::run_ozref({"run", "--scheme", "ozaki2-int8", "--mantissa-bits", "55", "--m", "2", "--n", "2", "--k", "3"});
  CHECK(other.code == 2);
  CHECK_THAT(other.err, Catch::Contains("ozaki2-int8 takes no --mantissa-bits"));
  cases += 10;
  // Leading zeros are a plain decimal, as in every integer option; 23 and 127 are the ends; dynamic
  // on generated inputs, and dynamic:N[:MAX] as a manifest records a DYNAMIC run (counts 0 and up;
  // above MAX, 79 by default, the native fallback).
  for (const char* good : {"0055", "23", "127", "dynamic", "dynamic:61", "dynamic:0", "dynamic:174", "dynamic:94:127", "dynamic:94:0"}) {
    INFO("--mantissa-bits '" << good << "'");
    CHECK(run({"--mantissa-bits", good, "--verify", "none"}).code == 0);
    ++cases;
  }
  cases.report(28);
}

namespace {

// The inputs of one cublas_kblock_probe dynamic-count line (its families, as the probe builds them;
// row-major here), or false for a line this test does not rebuild (the size lines above 2^22
// elements, whose count the small ones already show: 1024 x 1024 x 65536).
bool dynamic_probe_inputs(const std::string& line, Matrix<double>& a, Matrix<double>& b) {
  int k = 0, rows = 0, g = 0, s = 0, p = 0, mn = 0, offset = 0, cap = 0, count = 0;
  double sig = 0;
  auto shape = [&](size_t m, size_t n, size_t depth, double fill) {
    a = Matrix<double>(m, depth), b = Matrix<double>(depth, n);
    std::fill(a.data.begin(), a.data.end(), fill), std::fill(b.data.begin(), b.data.end(), fill);
  };
  auto gap = [&](int depth, int gap_rows, double significand, int binades) {  // A = [2^10, x, 0...], B = [0; 1; 0...]
    shape(64, 64, static_cast<size_t>(depth), 0.0);
    for (size_t i = 0; i < 64; ++i)
      a(i, 0) = std::ldexp(1.0, 10), a(i, 1) = i < static_cast<size_t>(gap_rows) ? std::ldexp(significand, 10 - binades) : std::ldexp(1.0, 10);
    for (size_t j = 0; j < 64; ++j) b(1, j) = 1;
  };
  if (std::sscanf(line.c_str(), "dyn gap k=%d rows=%d sig=%lf g=%d %d", &k, &rows, &sig, &g, &count) == 5) return gap(k, rows, sig, g), true;
  if (std::sscanf(line.c_str(), "dyn control g=%d offset=%d cap=%d %d", &g, &offset, &cap, &count) == 4) return gap(2, 64, 1.0, g), true;
  if (std::sscanf(line.c_str(), "dyn coarse s=10 u=20 p=%d %d", &p, &count) == 2) {
    shape(64, 64, 256, 1.0);
    for (size_t q = 0; q < 256; ++q) {
      const size_t phase = q % (2 * static_cast<size_t>(p));
      if (phase != 0 && phase != static_cast<size_t>(p)) continue;
      for (size_t i = 0; i < 64; ++i) a(i, q) = std::ldexp(1.0, phase == 0 ? 10 : -20), b(q, i) = std::ldexp(1.0, phase == 0 ? -20 : 10);
    }
    return true;
  }
  const bool cancel = std::sscanf(line.c_str(), "dyn cancel s=%d %d", &s, &count) == 2;
  if (cancel || std::sscanf(line.c_str(), "dyn nocancel s=%d %d", &s, &count) == 2) {
    shape(64, 64, 256, 1.0);
    for (size_t i = 0; i < 64; ++i) a(i, 0) = a(i, 1) = std::ldexp(1.0, s), b(1, i) = cancel ? -1 : 1;
    return true;
  }
  if (std::sscanf(line.c_str(), "dyn blockgap k=%d s=%d %d", &k, &s, &count) == 3) {
    shape(64, 64, static_cast<size_t>(k), 1.0);
    for (size_t i = 0; i < 64; ++i) a(i, 0) = std::ldexp(1.0, s), b(200, i) = std::ldexp(1.0, s);
    return true;
  }
  if (std::sscanf(line.c_str(), "dyn size m=n=%d k=%d %d", &mn, &k, &count) == 3) {
    if (static_cast<double>(mn) * k > 4194304.0) return false;
    return shape(static_cast<size_t>(mn), static_cast<size_t>(mn), static_cast<size_t>(k), 1.0), true;
  }
  if (line.rfind("dyn zero ", 0) == 0) {
    shape(64, 64, 2, 0.0);
    for (size_t i = 0; i < 64; ++i) a(i, 0) = 1, b(1, i) = 1;
    if (line.find("one-product-2^-30") != std::string::npos) a(0, 1) = std::ldexp(1.0, -30);
    return true;
  }
  FAIL("unknown dynamic-count line: " << line);
  return false;
}

// The count cuBLAS reported (the line's last field) less the line's mantissa bit offset (the probe
// shows the offset adding to the count; ozref has no such option).
int reported_without_offset(const std::string& line) {
  const int count = std::stoi(line.substr(line.rfind(' ') + 1));
  const size_t at = line.find("offset=");
  return count - (at == std::string::npos ? 0 : std::stoi(line.substr(at + 7)));
}

int rule_count(const Matrix<double>& a, const Matrix<double>& b) {
  return schemes::cublas_fixedpoint::dynamic_bit_count(a.data.data(), b.data.data(), a.rows, b.cols, a.cols);
}

}  // namespace

TEST_CASE("cublas-fixedpoint@13.1's DYNAMIC count rule gives every count cuBLAS reported on the probes", "[schemes]") {
  std::ifstream in(data_dir() + "/cublas/cublas_dynamic_count_probe.txt");
  REQUIRE(in);
  size_t equal = 0, no_estimate = 0, not_rebuilt = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("dyn ", 0) != 0) continue;
    INFO(line);
    Matrix<double> a, b;
    if (!dynamic_probe_inputs(line, a, b)) {
      ++not_rebuilt;
      continue;
    }
    const int want = reported_without_offset(line);
    CHECK(rule_count(a, b) == want);
    ++(want == 4249 ? no_estimate : equal);  // 4249: no block with a nonzero term in both lines
  }
  // The cublas_emu_probe cases (probe_cases.txt): whole inputs for slicing, rounding, row_scale and
  // col_scale; row subsets for products, accumulate and dynamic, whose subsets give the whole
  // case's count too.
  for (const ProbeCase& c : probe_cases()) {
    INFO(c.name);
    CHECK(rule_count(load(data_dir() + "/cublas/" + c.name + "_A.npy"), load(data_dir() + "/cublas/" + c.name + "_B.npy")) == c.dynamic_bits);
    ++equal;
  }
  WARN("DYNAMIC count rule: " << equal << " recorded counts equal, and " << no_estimate << " of 4249, " << not_rebuilt << " size line (1024 x 1024 x 65536) not rebuilt");
  CHECK(equal == 341);
  CHECK(no_estimate == 230);
  CHECK(not_rebuilt == 1);  // counted and required, not skipped
}

TEST_CASE("cublas-fixedpoint@13.1 --mantissa-bits dynamic reproduces every DYNAMIC record without the count given", "[schemes]") {
  const test::TempDir dir("cublas-dynamic");
  const std::string data = data_dir() + "/cublas/";
  Tally tally;
  for (const ProbeCase& c : probe_cases()) {
    const std::string a = data + c.name + "_A.npy", b = data + c.name + "_B.npy";
    const size_t kblock = load(a).rows == c.m ? 0 : schemes::cublas_fixedpoint::kblock_size(c.m, c.n, c.k);
    const Matrix<double> want = load(data + c.name + "_dynamic_C.npy");
    require_bit_identical(ozref_run(a, b, "dynamic", kblock, dir / "c.npy", want.rows, want.cols), want, c.name + " dynamic", tally);
  }
  for (const test::ThirdPartyCase& c : test::third_party_cases()) {
    const auto [a, b] = write_inputs(c, dir);
    const Matrix<double> want = load(data_dir() + "/third-party/" + c.name + "_cublasemuDyn_C.npy");
    require_bit_identical(ozref_run(a, b, "dynamic", 0, dir / "c.npy", c.m, c.n), want,
                          c.name + " cublasemuDyn (rule: " + std::to_string(rule_count(c.a, c.b)) + " bits)", tally);
  }
  WARN("DYNAMIC records through --mantissa-bits dynamic: " << tally.records << " records, " << tally.elements << " elements bit-identical");
  CHECK(tally.records == 12);
  CHECK(tally.elements == 9072 + 42496);
  // The trace records the count: its manifest's options say dynamic:N (row_scale: 124, above the
  // default max of 79: the native fallback, whose trace verifies).
  const test::CommandResult r = test::run_ozref({"run", "--scheme", "cublas-fixedpoint@13.1", "--mantissa-bits", "dynamic", "--a",
                                                 data + "row_scale_A.npy", "--b", data + "row_scale_B.npy", "--dump", dir / "trace"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const nlohmann::json manifest = nlohmann::json::parse(std::ifstream(dir / "trace/manifest.json"));
  CHECK(manifest.at("options").at("mantissa-bits") == "dynamic:124");
  CHECK(manifest.at("resolved").at("max_mantissa_bits") == 79);
  CHECK(test::run_ozref({"verify-trace", dir / "trace"}).code == 0);
}
