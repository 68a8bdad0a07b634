// fuzz_run: a scheme run on a small random configuration with full stage verification, built
// through the scheme registry as `ozref run` builds it; when byte 2's top bit is set, the same run
// also goes through the `ozref run` command line (option parsing, --a/--b .npy inputs, --out, --dump
// and its manifest) and `ozref verify-trace` on that dump.
// Mode byte: the scheme (ozaki2-int8, ozaki2-fp8, ozaki2-fp4, ozaki1-int8, int8-on-fp4, rare), its
// architecture and options; next bytes: m, n in 1..4 (the top bit of the first: complex, for the
// ozaki2-* and ozaki1-* schemes) and k in 1..40; the rest fills A and B (then their imaginary
// parts): FP64 bit patterns (8 bytes each) or, for int8-on-fp4, INT8 values.
// Bad input (NaN, infinity) must be refused with InputError (the command line: exit 2); every
// accepted run must verify every stage and be exact (int8-on-fp4: bit-identical to the exact
// product). The one allowed exception is rare's own exactness condition: fp64-emu's scaling can
// leave the CRT range (when a line's sum of squares overflows FP64 it skips its gain), and then the
// round stage must report exactly that and the run must say it is not exact. The command line must
// write the library's C byte for byte, exit 0 (1 where the round stage reports), and verify-trace
// must give the same verdict on the dump.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "common/error.hpp"
#include "io/npy.hpp"
#include "schemes/pipeline/runner.hpp"
#include "schemes/registry.hpp"
#include "schemes/common/scheme_inputs.hpp"
#include "ozref_command.hpp"

namespace {

namespace fs = std::filesystem;
using namespace ozref;
using namespace ozref::schemes;

struct Operands {
  Matrix<double> a, b, a_im, b_im;
  size_t m, n, k;
};

struct Config {
  std::string scheme;
  SchemeOptions options;
};

Config config_of(uint8_t mode, bool complex) {
  const int scheme = mode % 6;
  Config c;
  if (scheme == 3) {
    c.scheme = "ozaki1-int8";
    c.options.slices = 1 + (mode >> 3) % 9;
    c.options.complex = complex;
    return c;
  }
  if (scheme == 4) {
    c.scheme = "int8-on-fp4";
    c.options.arch = (mode >> 3) & 1 ? "sm_100" : "ideal";
    return c;
  }
  const char* names[] = {"ozaki2-int8", "ozaki2-fp8", "ozaki2-fp4", "", "", "rare"};
  c.scheme = names[scheme];
  c.options.arch = (mode >> 3) & 1 ? (scheme == 2 ? "sm_120" : "sm_90") : "ideal";
  c.options.crt = (mode >> 5) & 1 ? "garner" : "exact";
  if (scheme != 5) {  // rare takes neither a scaling mode nor a moduli count here: fp64-emu's own by K
    c.options.mode = (mode >> 4) & 1 ? "fast" : "accurate";
    c.options.moduli = 2 + ((mode >> 6) & 3) * 5;
    c.options.complex = complex;
  }
  return c;
}

SchemeResult run_library(const Config& c, const Operands& x) {
  const Scheme s = build_scheme(c.scheme, c.options, x.m, x.n, x.k);
  Arrays inputs = c.options.complex ? input_arrays({x.a, x.a_im}, {x.b, x.b_im}) : input_arrays({x.a}, {x.b});
  return run_scheme(s, std::move(inputs), {.verify = Verify::Full, .threads = 1});
}

[[noreturn]] void fail(const Config& c, const Operands& x, const std::string& what) {
  std::fprintf(stderr, "fuzz_run: %s %s, %zux%zux%zu: %s\n", c.scheme.c_str(), c.options.to_json().dump().c_str(), x.m, x.n, x.k,
               what.c_str());
  std::abort();
}

std::string bytes_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// `ozref run` with the configuration's options on A and B written as .npy files.
std::vector<std::string> run_command(const Config& c, const fs::path& dir) {
  std::vector<std::string> args{"run", "--scheme", c.scheme, "--a", (dir / "a.npy").string(), "--b", (dir / "b.npy").string(),
                                "--out", (dir / "c.npy").string(), "--dump", (dir / "trace").string(), "--verify", "full", "--threads", "1"};
  const nlohmann::json options = c.options.to_json();
  for (const auto& [key, value] : options.items()) {
    if (key == "complex") continue;
    args.push_back("--" + key);
    args.push_back(value.is_string() ? value.get<std::string>() : value.dump());
  }
  if (c.options.complex) args.push_back("--complex");
  return args;
}

NpyArray npy_of(const Matrix<double>& re, const Matrix<double>& im, bool complex) {
  return complex ? npy_from_complex(re, im) : npy_from_matrix(re);
}

// The run through the command line must agree with the library's: `expected` is its exit code
// (0, 1, or 2 where the library refused the input), `c` its result bytes.
void check_command_line(const Config& c, const Operands& x, int expected, const std::string& c_bytes) {
  static const fs::path dir = [] {
    std::string tmpl = (fs::temp_directory_path() / "ozref-fuzz-run-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) std::abort();
    return fs::path(tmpl);
  }();
  fs::remove_all(dir / "trace");
  fs::remove(dir / "c.npy");
  write_npy((dir / "a.npy").string(), npy_of(x.a, x.a_im, c.options.complex));
  write_npy((dir / "b.npy").string(), npy_of(x.b, x.b_im, c.options.complex));
  const fuzz::CommandResult run = fuzz::ozref_command(run_command(c, dir));
  if (run.code != expected)
    fail(c, x, "ozref run exited " + std::to_string(run.code) + ", the library says " + std::to_string(expected) + ": " + run.err);
  if (expected == 2) return;
  if (bytes_of(dir / "c.npy") != c_bytes) fail(c, x, "ozref run --out differs from the library's result");
  const fuzz::CommandResult verified = fuzz::ozref_command({"verify-trace", (dir / "trace").string(), "--threads", "1"});
  if (verified.code != expected) fail(c, x, "verify-trace on the dump exited " + std::to_string(verified.code) + ": " + verified.err);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const uint8_t mode = data[0];
  const bool int8_values = mode % 6 == 4;
  Operands x{{}, {}, {}, {}, size_t{1} + data[1] % 4, size_t{1} + data[2] % 4, size_t{1} + data[3] % 40};
  x.a = x.a_im = Matrix<double>(x.m, x.k);
  x.b = x.b_im = Matrix<double>(x.k, x.n);
  size_t at = 4;
  auto next = [&]() -> double {
    if (int8_values) return at < size ? double(int8_t(data[at++])) : 0.0;
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits = bits << 8 | (at < size ? data[at++] : 0);
    return std::bit_cast<double>(bits);
  };
  for (Matrix<double>* part : {&x.a, &x.b, &x.a_im, &x.b_im})
    for (double& v : part->data) v = next();
  const Config c = config_of(mode, (data[1] & 0x80) != 0);
  const bool through_command_line = (data[2] & 0x80) != 0;
  SchemeResult r;
  try {
    r = run_library(c, x);
  } catch (const InputError&) {  // refused with a message: NaN or infinity in the input
    if (through_command_line) check_command_line(c, x, 2, "");
    return 0;
  }
  const bool rare_out_of_range = c.scheme == "rare" && !r.exactness_conditions;
  for (const StageReport& s : r.stages)
    if (!s.holds() && !(rare_out_of_range && s.name == "round" && s.violations >= 1 &&  // each element past the bound counts
                           s.first_violation.find("CRT bound") != std::string::npos))
      fail(c, x, "stage " + s.name + ": " + s.first_violation);
  if (r.exact == rare_out_of_range) fail(c, x, "exact unless (and only unless) rare left its range");
  if (int8_values && r.accuracy.bit_identical != r.accuracy.elements) fail(c, x, "int8-on-fp4 is not bit-identical");
  if (through_command_line)
    check_command_line(c, x, rare_out_of_range ? 1 : 0, serialize_npy(npy_of(r.c, r.c_imag, c.options.complex)));
  return 0;
}
