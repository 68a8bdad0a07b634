// Zero-sized dimensions are a case of every scheme: for every registered scheme, its complex form
// and each of its modes, and every m, n, k in {0, 1, 3} with at least one of them 0, the result is
// the exact product (the empty sum is +0: an m x n matrix of +0, or an empty one), through the
// library and through `ozref run --dump` followed by `ozref verify-trace` of that trace.
#include <catch2/catch.hpp>
#include <bit>
#include <complex>
#include <cstring>

#include "cli/cli_support.hpp"
#include "io/npy.hpp"
#include "ozref/ozref.hpp"
#include "support.hpp"
#include "workspace.hpp"

namespace ozref {
namespace {

// One scheme configuration: the command's options after --scheme, and the library's.
struct Config {
  std::string scheme;
  std::vector<std::string> flags;
  api::SchemeOptions options;
  bool complex = false;
};

std::vector<Config> every_configuration() {
  std::vector<Config> v;
  const auto add = [&](const std::string& scheme, const std::string& flag, const std::string& value, std::string api::SchemeOptions::*field,
                       bool complex = false) {
    Config c{scheme, {}, {}, complex};
    if (!flag.empty()) c.flags = {flag, value}, c.options.*field = value;
    if (complex) c.flags.push_back("--complex");
    v.push_back(c);
  };
  using O = api::SchemeOptions;
  for (const std::string s : {"ozaki2-int8", "ozaki2-fp8", "ozaki2-fp4"})
    for (const bool complex : {false, true}) {
      for (const std::string mode : {"accurate", "fast"}) add(s, "--mode", mode, &O::mode, complex);
      for (const std::string crt : {"garner", "dd"}) add(s, "--crt", crt, &O::crt, complex);
    }
  add("ozaki2-int8", "--mode", "gemmul8-fast", &O::mode);
  add("ozaki2-int8", "--complex-product", "gaussian", &O::complex_product, true);
  add("rare", "", "", nullptr);
  add("rare", "--crt", "garner", &O::crt);
  for (const bool complex : {false, true}) {
    add("ozaki1-int8", "--slicing", "cublas", &O::slicing, complex);
    for (const std::string acc : {"exact", "fp64", "fused"}) add("ozaki1-int8", "--accumulate", acc, &O::accumulate, complex);
    for (const std::string acc : {"exact", "fp64"}) add("ozaki1-fp4", "--accumulate", acc, &O::accumulate, complex);
  }
  add("int8-on-fp4", "", "", nullptr);
  for (const std::string mode : {"accurate", "fast"}) add("gemmul8@2.0.14", "--mode", mode, &O::mode);
  for (const std::string bits : {"55", "dynamic"}) add("cublas-fixedpoint@13.1", "--mantissa-bits", bits, &O::mantissa_bits);
  return v;
}

struct Shape {
  size_t m, n, k;
};

std::vector<Shape> zero_sized_shapes() {
  std::vector<Shape> v;
  for (size_t m : {0, 1, 3})
    for (size_t n : {0, 1, 3})
      for (size_t k : {0, 1, 3})
        if (m == 0 || n == 0 || k == 0) v.push_back({m, n, k});
  return v;
}

// Operands of small integers (any values: k = 0 or an empty C leaves none in the product).
std::vector<std::complex<double>> values(size_t count, double start) {
  std::vector<std::complex<double>> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = {start + double(i % 7) - 3, double(i % 5) - 2};
  return v;
}

std::vector<double> real_parts(const std::vector<std::complex<double>>& v) {
  std::vector<double> r;
  for (const auto& z : v) r.push_back(z.real());
  return r;
}

NpyArray npy_of(const std::vector<std::complex<double>>& v, size_t rows, size_t cols, bool complex) {
  NpyArray a{.dtype = complex ? DType::C16 : DType::F8, .shape = {rows, cols}, .data = {}};
  const std::vector<double> re = real_parts(v);
  a.data.resize(v.size() * (complex ? 16 : 8));
  if (!a.data.empty()) std::memcpy(a.data.data(), complex ? static_cast<const void*>(v.data()) : re.data(), a.data.size());
  return a;
}

// Every element +0, as the empty sum is.
bool all_positive_zeros(const std::vector<double>& c) {
  for (double x : c)
    if (std::bit_cast<uint64_t>(x) != 0) return false;
  return true;
}

std::string describe(const Config& c, const Shape& s) {
  std::string text = c.scheme;
  for (const std::string& f : c.flags) text += " " + f;
  return text + " m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) + " k=" + std::to_string(s.k);
}

}  // namespace

TEST_CASE("zero-sized: every scheme in every form and mode gives the exact product when m or n or k is 0 (library)", "[zero-sized]") {
  test::CaseCount cases("zero-sized library runs");
  for (const Config& config : every_configuration())
    for (const Shape& s : zero_sized_shapes()) {
      INFO(describe(config, s));
      const std::vector<std::complex<double>> a = values(s.m * s.k, 1), b = values(s.k * s.n, 2);
      const std::vector<double> ar = real_parts(a), br = real_parts(b);
      api::RunOptions o;
      o.scheme = config.options, o.threads = 1;
      const api::RunResult r = config.complex ? api::run(config.scheme, api::matrix(a.data(), s.m, s.k), api::matrix(b.data(), s.k, s.n), o)
                                              : api::run(config.scheme, api::matrix(ar.data(), s.m, s.k), api::matrix(br.data(), s.k, s.n), o);
      CHECK(r.exit_code == 0);
      CHECK((r.c.rows == s.m && r.c.cols == s.n && r.c.data.size() == s.m * s.n));
      CHECK(all_positive_zeros(r.c.data));
      if (config.complex) CHECK((r.c_imag.data.size() == s.m * s.n && all_positive_zeros(r.c_imag.data)));
      ++cases;
    }
  cases.report(every_configuration().size() * 19);
}

TEST_CASE("zero-sized: ozref run --dump writes a trace that verify-trace verifies (every scheme in every form and mode)", "[zero-sized]") {
  test::CaseCount cases("zero-sized command runs, dumped and verified");
  test::Workspace ws;
  for (const Config& config : every_configuration())
    for (const Shape& s : zero_sized_shapes()) {
      INFO(describe(config, s));
      write_npy(ws.path("a.npy"), npy_of(values(s.m * s.k, 1), s.m, s.k, config.complex));
      write_npy(ws.path("b.npy"), npy_of(values(s.k * s.n, 2), s.k, s.n, config.complex));
      const std::string trace = ws.path("trace-" + std::to_string(cases.count));
      std::vector<std::string> args = {"run", "--scheme", config.scheme, "--a", ws.path("a.npy"), "--b", ws.path("b.npy"), "--dump", trace,
                                       "--out", ws.path("c.npy"), "--threads", "1"};
      args.insert(args.end(), config.flags.begin(), config.flags.end());
      const test::CommandResult run = test::run_ozref(args);
      INFO(run.err);
      REQUIRE(run.code == 0);
      const NpyArray c = read_npy(ws.path("c.npy"));
      CHECK(c.shape == std::vector<size_t>{s.m, s.n});
      CHECK(std::all_of(c.data.begin(), c.data.end(), [](uint8_t byte) { return byte == 0; }));
      const test::CommandResult verified = test::run_ozref({"verify-trace", trace, "--threads", "1"});
      INFO(verified.out << verified.err);
      CHECK(verified.code == 0);
      ++cases;
    }
  cases.report(every_configuration().size() * 19);
}

}  // namespace ozref
