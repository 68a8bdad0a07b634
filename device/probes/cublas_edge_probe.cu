// cublas_edge_probe: black-box records of cuBLAS 13.1's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH,
// strategy EAGER) where ozref's model of it (cublas-fixedpoint@13.1, docs/third-party.md) is known to
// differ (issue 38): products below FP64's normal range, DYNAMIC on heavy-tailed data, DYNAMIC on
// exponent spans whose count exceeds 127.
// Usage: cublas_edge_probe OUT_DIR [seed [prefix]]: only the cases whose name starts with prefix (all
// cases are drawn either way, so each keeps its inputs), the listing appended to. Writes, per case, OUT_DIR/<case>_A.npy and _B.npy (f8,
// Fortran order, the layout cuBLAS reads) and OUT_DIR/<case>_<setting>_C.npy, each setting on a
// fresh handle, C canary-filled with NaN first; OUT_DIR/cases.txt: one line per case,
// "<case> m n k group" and "<setting>=<count>" per setting, count the first int cuBLAS wrote through
// cublasSetFixedPointEmulationMantissaBitCountPointer (-1: none; then "+v@i" for any later int i of
// the 64-int canary-filled buffer that cuBLAS wrote, value v), "<setting>=rejected:<status>"
// where cuBLAS refused the setting or the DGEMM (no C file then).
// Settings: group "full": native, dynamic, dyn<o> (DYNAMIC with mantissa bit offset o, which the
// count probe showed adding to the count: o in OFFSETS), dyncap<c> (DYNAMIC with max mantissa bit
// count c, which the count probe showed not capping the reported count: does it cap the computation?),
// fixed39 ... fixed79 (every count) and fixed87 ... fixed127 (counts the FIXED control may refuse);
// group "dyn": native, dynamic, dyn<o>, dyncap<c>; group "fb": native, dynamic; group "cap":
// dyn<o>cap<c> (offset o and max bit count c together, CAP_SETTINGS). The listing's header holds a
// fresh handle's defaults (FIXED max bit count, offset) as cuBLAS reports them.
// The cases (each generator documented where it is defined):
//   class 1 (below the normal range): sub_single, sub_single_bt, sub_subin, sub_dense_*,
//            sub_rowgap_*, sub_one_term
//   class 2 (heavy tails): phi<s>_*, phi4rows_*
//   class 3 (wide spans): span<s>_*, gap<g> (group dyn)
//   the native fallback (DYNAMIC above its max): fb_k<k> (k sweep), fb_<m>x<n> (tile counts),
//            fb_nofin (a count of 4249) (group fb); cap<g> (the max's threshold, group cap)
// Self-contained (CUDA runtime and cuBLAS) so that it runs on a bare GPU host.
#include "cublas_probe_io.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using cublas_probe::Case;
using cublas_probe::check;
using cublas_probe::gemm;
using cublas_probe::write_npy;

const int OFFSETS[] = {-96, -64, -48, -32, -24, -16, -8, 8, 16};
const int COUNT_WORDS = 64;  // ints of the count buffer read back (cuBLAS documents one)

// (offset, max bit count) pairs of group cap: on cap20 (count 54 + 20 - 24 = 50) and cap60 (90) the
// max each side of the count, in and beyond FIXED's range.
const std::pair<int, int> CAP_SETTINGS[] = {{-24, 40}, {-24, 49}, {-24, 50}, {-24, 51}, {-24, 79}, {-24, 85},
                                            {-24, 89}, {-24, 90}, {-24, 91}, {-24, 100}, {-24, 127}};

struct Setting {
  std::string name;
  enum { NATIVE, FIXED, DYNAMIC } control;
  int bits, offset, cap;  // cap: DYNAMIC's max mantissa bit count (0: the handle's default)
};

enum class Group { Full, Dyn, Fallback, Cap };
const char* group_name(Group g) { return g == Group::Full ? "full" : g == Group::Dyn ? "dyn" : g == Group::Fallback ? "fb" : "cap"; }

std::vector<Setting> settings(Group group) {
  if (group == Group::Cap) {
    std::vector<Setting> all = {{"native", Setting::NATIVE, 0, 0, 0}};
    for (auto [o, cap] : CAP_SETTINGS) all.push_back({"dyn" + std::to_string(o) + "cap" + std::to_string(cap), Setting::DYNAMIC, 0, o, cap});
    return all;
  }
  std::vector<Setting> all = {{"native", Setting::NATIVE, 0, 0, 0}, {"dynamic", Setting::DYNAMIC, 0, 0, 0}};
  if (group == Group::Fallback) return all;
  for (int o : OFFSETS) all.push_back({"dyn" + std::to_string(o), Setting::DYNAMIC, 0, o, 0});
  for (int cap : {79, 127}) all.push_back({"dyncap" + std::to_string(cap), Setting::DYNAMIC, 0, 0, cap});
  if (group == Group::Dyn) return all;
  for (int bits = 39; bits <= 79; ++bits) all.push_back({"fixed" + std::to_string(bits), Setting::FIXED, bits, 0, 0});
  for (int bits = 87; bits <= 127; bits += 8) all.push_back({"fixed" + std::to_string(bits), Setting::FIXED, bits, 0, 0});
  return all;
}

using Gen = std::function<double(size_t, size_t)>;

struct Builder {
  std::mt19937_64 r;
  std::vector<std::pair<Case, Group>> cases;  // the case and its group of settings

  double uniform() { return double(r() >> 11) * 0x1p-53; }
  double sign() { return r() & 1 ? -1.0 : 1.0; }
  // A random 53-bit significand in [1, 2), random sign, times 2^e (ldexp rounds it below the normal range).
  // (Each draw is its own statement: the order of operands' evaluation is unspecified in C++.)
  double sig(int e) {
    const double x = std::ldexp(double((r() >> 11) | (1ull << 52)), e - 52);
    return x * sign();
  }
  double gauss() {  // Box-Muller
    const double radius = std::sqrt(-2 * std::log(1 - uniform()));
    return radius * std::cos(2 * M_PI * uniform());
  }
  // make_inputs.py's phi element: (u - 0.5) exp(s gauss), heavier tails for larger s.
  double phi(double s) {
    const double u = uniform() - 0.5;
    return u * std::exp(s * gauss());
  }

  void make(const std::string& name, size_t m, size_t n, size_t k, const Gen& fa, const Gen& fb, Group group = Group::Full) {
    Case c{name, m, n, k, std::vector<double>(m * k), std::vector<double>(k * n)};
    for (size_t j = 0; j < k; ++j)
      for (size_t i = 0; i < m; ++i) c.a[j * m + i] = fa(i, j);
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < k; ++i) c.b[j * k + i] = fb(i, j);
    cases.emplace_back(std::move(c), group);
  }
};

const int B_EXPONENTS[8] = {0, -20, -40, -46, -52, -60, -80, -100};

// Class 1: k = 1 cases isolate one product per element; the others the scales and blocks near 2^-1074.
void below_normal(Builder& g) {
  // a at 2^-960 .. 2^-1087 (below -1022: subnormal a), b at B_EXPONENTS: products 2^-960 .. 2^-1187.
  g.make("sub_single", 256, 8, 1, [&](size_t i, size_t) { return g.sig(-960 - int(i % 128)); },
         [&](size_t, size_t j) { return g.sig(B_EXPONENTS[j]); });
  // The same with A's and B's roles swapped: is the scale treated alike on both sides?
  g.make("sub_single_bt", 8, 256, 1, [&](size_t i, size_t) { return g.sig(B_EXPONENTS[i]); },
         [&](size_t, size_t j) { return g.sig(-960 - int(j % 128)); });
  // Subnormal a (2^-1023 .. 2^-1074) times b at 2^60 .. 2^88: normal products from subnormal inputs.
  g.make("sub_subin", 256, 8, 1, [&](size_t i, size_t) { return g.sig(-1023 - int(i % 52)); },
         [&](size_t, size_t j) { return g.sig(60 + 4 * int(j)); });
  // Issue 38's inputs: A gauss 2^ea, B gauss 2^-40, several ea and K.
  for (auto [ea, k] : {std::pair{-1000, 16}, {-1000, 256}, {-1000, 1024}, {-980, 256}, {-1020, 256}})
    g.make("sub_dense_a" + std::to_string(-ea) + "_k" + std::to_string(k), 32, 32, k,
           [&, ea = ea](size_t, size_t) { return std::ldexp(g.gauss(), ea); }, [&](size_t, size_t) { return std::ldexp(g.gauss(), -40); });
  // row_scale at the bottom: A = [2^ea, x], x 0..70 binades below 2^ea, B = [0; 2^-40].
  for (int ea : {-960, -990})
    g.make("sub_rowgap_a" + std::to_string(-ea), 71 * 8, 1, 2,
           [&, ea](size_t i, size_t j) { return j == 0 ? std::ldexp(1.0, ea) : g.sig(ea - int(i / 8)); },
           [](size_t i, size_t) { return i == 1 ? 0x1p-40 : 0.0; });
  // One nonzero a per row (at k = 37 i mod 1024, 2^-1000 .. 2^-1015), B dense near 2^-40 .. 2^-47:
  // each element one product, B truncated against its K-block's largest entry.
  g.make("sub_one_term", 128, 8, 1024, [&](size_t i, size_t j) { return j == (37 * i) % 1024 ? g.sig(-1000 - int(i % 16)) : 0.0; },
         [&](size_t, size_t) { return g.sig(-40 - int(g.r() % 8)); });
}

// Class 2: heavy-tailed data, the count DYNAMIC picks and what it computes at it.
void heavy_tails(Builder& g) {
  for (auto [s, k] : {std::pair{4, 8192}, {4, 2048}, {4, 512}, {3, 2048}})
    g.make("phi" + std::to_string(s) + "_64x64x" + std::to_string(k), 64, 64, k, [&, s = s](size_t, size_t) { return g.phi(s); },
           [&, s = s](size_t, size_t) { return g.phi(s); });
  // Heavy tails only in rows 0..127, light (s = 1) in rows 128..255: two output tiles, two spans.
  g.make("phi4rows_256x16x2048", 256, 16, 2048, [&](size_t i, size_t) { return g.phi(i < 128 ? 4 : 1); },
         [&](size_t, size_t) { return g.phi(4); });
}

// Class 3: exponent spans whose DYNAMIC count exceeds 127.
void wide_spans(Builder& g) {
  // Entries sig 2^u, u uniform in [-s, s], both signs.
  for (auto [s, k] : {std::pair{60, 64}, {60, 1024}, {30, 1024}, {45, 1024}, {90, 1024}})
    g.make("span" + std::to_string(s) + "_32x32x" + std::to_string(k), 32, 32, k,
           [&, s = s](size_t, size_t) { return g.sig(int(g.r() % (2 * s + 1)) - s); },
           [&, s = s](size_t, size_t) { return g.sig(int(g.r() % (2 * s + 1)) - s); });
  // A = [2^10, x], x exactly g binades below, B = [0; 1]: the count is 54 + g and C = x truncated to
  // the grid of the bit count DYNAMIC actually runs (the negative offsets bring x onto the grid).
  for (int gap : {40, 60, 70, 73, 74, 80, 90, 100, 110, 120, 130, 150, 180})
    g.make("gap" + std::to_string(gap), 64, 1, 2, [&, gap](size_t, size_t j) { return j == 0 ? 0x1p10 : g.sig(10 - gap); },
           [](size_t i, size_t) { return i == 1 ? 1.0 : 0.0; }, Group::Dyn);
}

// The native fallback: entries sig 2^u, u uniform in [-30, 30] (DYNAMIC counts near 113, above the
// default max of 79), so that C depends on the order of the FP64 sums.
void fallback(Builder& g) {
  const Gen wide = [&](size_t, size_t) { return g.sig(int(g.r() % 61) - 30); };
  // The parts of K: k not a multiple of 16, and between the k already recorded (16 x 16 outputs).
  for (size_t k : {17, 33, 100, 200, 257, 300, 500, 640, 1000, 1500, 3000, 5000, 6000})
    g.make("fb_k" + std::to_string(k), 16, 16, k, wide, wide, Group::Fallback);
  // More 128 x 128 tiles at k = 512 (1, 4 and 16 tiles, and 4 tiles as 4 x 1 and 1 x 4).
  for (auto [m, n] : {std::pair<size_t, size_t>{128, 128}, {256, 256}, {512, 512}, {512, 32}, {32, 512}})
    g.make("fb_" + std::to_string(m) + "x" + std::to_string(n), m, n, 512, wide, wide, Group::Fallback);
  // No finite estimate (cuBLAS reports 4249): a zero at every k = 0 mod 64 of each line, 16 x 16 x 1024.
  g.make("fb_nofin", 16, 16, 1024, [&](size_t, size_t j) { return j % 64 == 0 ? 0.0 : g.sig(int(g.r() % 61) - 30); },
         [&](size_t i, size_t) { return i % 64 == 0 ? 0.0 : g.sig(int(g.r() % 61) - 30); }, Group::Fallback);
  // The max's threshold: gap g = 60 and 20 as in gap<g> (counts 114 and 74, 90 and 50 under the
  // offset -24), under CAP_SETTINGS: x is truncated where the count is emulated, exact where native.
  for (int gap : {60, 20})
    g.make("cap" + std::to_string(gap), 64, 1, 2, [&, gap](size_t, size_t j) { return j == 0 ? 0x1p10 : g.sig(10 - gap); },
           [](size_t i, size_t) { return i == 1 ? 1.0 : 0.0; }, Group::Cap);
}

// One run of a case under one setting on a fresh handle; false (and status) when cuBLAS refused the
// setting or the DGEMM.
bool run(const Case& c, const Setting& s, int* counts, std::vector<double>& out, std::vector<int>& reported, int& status) {
  cublasHandle_t h;
  check(cublasCreate(&h), "cublasCreate");
  status = CUBLAS_STATUS_SUCCESS;
  if (s.control != Setting::NATIVE) {
    check(cublasSetMathMode(h, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH), "emulated math");
    check(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER), "eager");
    const bool dynamic = s.control == Setting::DYNAMIC;
    check(cublasSetFixedPointEmulationMantissaControl(h, dynamic ? CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC : CUDA_EMULATION_MANTISSA_CONTROL_FIXED),
          "mantissa control");
    if (!dynamic) status = cublasSetFixedPointEmulationMaxMantissaBitCount(h, s.bits);
    if (dynamic && s.offset != 0) status = cublasSetFixedPointEmulationMantissaBitOffset(h, s.offset);
    if (dynamic && s.cap != 0) status = cublasSetFixedPointEmulationMaxMantissaBitCount(h, s.cap);
    check(cudaMemset(counts, 0xFF, COUNT_WORDS * sizeof(int)), "cudaMemset");
    check(cublasSetFixedPointEmulationMantissaBitCountPointer(h, counts), "bit count pointer");
  }
  reported.assign(COUNT_WORDS, -1);
  if (status == CUBLAS_STATUS_SUCCESS) status = gemm(h, c, out);
  if (status == CUBLAS_STATUS_SUCCESS && s.control != Setting::NATIVE)
    check(cudaMemcpy(reported.data(), counts, COUNT_WORDS * sizeof(int), cudaMemcpyDeviceToHost), "copy count");
  check(cublasDestroy(h), "cublasDestroy");
  return status == CUBLAS_STATUS_SUCCESS;
}

// "name=count" (then "+v@i" for each int i > 0 cuBLAS wrote, value v), or "name=rejected:status".
void record(FILE* list, const std::string& name, bool accepted, const std::vector<int>& reported, int status) {
  if (!accepted) {
    std::fprintf(list, " %s=rejected:%d", name.c_str(), status);
    return;
  }
  std::fprintf(list, " %s=%d", name.c_str(), reported[0]);
  for (int i = 1; i < COUNT_WORDS; ++i)
    if (reported[i] != -1) std::fprintf(list, "+%d@%d", reported[i], i);
}

// A fresh emulating handle's max mantissa bit count and offset (the values dynamic and dyn<o> run with).
void defaults(int& max_bits, int& offset) {
  cublasHandle_t h;
  check(cublasCreate(&h), "cublasCreate");
  check(cublasSetMathMode(h, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH), "emulated math");
  check(cublasGetFixedPointEmulationMaxMantissaBitCount(h, &max_bits), "max bit count");
  check(cublasGetFixedPointEmulationMantissaBitOffset(h, &offset), "bit offset");
  check(cublasDestroy(h), "cublasDestroy");
}

void probe_case(const std::string& out, FILE* list, const Case& c, Group group, int* counts) {
  write_npy(out + "/" + c.name + "_A.npy", c.m, c.k, c.a);
  write_npy(out + "/" + c.name + "_B.npy", c.k, c.n, c.b);
  std::fprintf(list, "%s %zu %zu %zu %s", c.name.c_str(), c.m, c.n, c.k, group_name(group));
  for (const Setting& s : settings(group)) {
    std::vector<double> result;
    std::vector<int> reported;
    int status = 0;
    const bool accepted = run(c, s, counts, result, reported, status);
    if (accepted) write_npy(out + "/" + c.name + "_" + s.name + "_C.npy", c.m, c.n, result);
    record(list, s.name, accepted, reported, status);
  }
  std::fprintf(list, "\n");
  std::fflush(list);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: cublas_edge_probe OUT_DIR [seed [prefix]]\n");
    return 2;
  }
  const std::string out = argv[1], prefix = argc == 4 ? argv[3] : "";
  const uint64_t seed = argc >= 3 ? std::strtoull(argv[2], nullptr, 0) : 38;
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  int* counts;
  check(cudaMalloc(&counts, COUNT_WORDS * sizeof(int)), "cudaMalloc");
  FILE* list = std::fopen((out + "/cases.txt").c_str(), "a");
  if (!list) {
    std::fprintf(stderr, "cublas_edge_probe: cannot write %s/cases.txt\n", out.c_str());
    return 2;
  }
  int version[3];
  for (int p : {MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL}) check(cublasGetProperty(libraryPropertyType(p), &version[p]), "cublasGetProperty");
  int max_bits = 0, offset = 0;
  defaults(max_bits, offset);
  std::fprintf(list,
               "# cublas_edge_probe seed %llu, prefix '%s', cuBLAS %d.%d.%d, default max mantissa bits %d, offset %d: case m n k group, then "
               "setting=count per setting (-1: not emulated)\n",
               static_cast<unsigned long long>(seed), prefix.c_str(), version[0], version[1], version[2], max_bits, offset);
  Builder g{std::mt19937_64(seed), {}};
  below_normal(g);
  heavy_tails(g);
  wide_spans(g);
  fallback(g);  // after the others: their inputs stay as the 2026-12-05 run drew them
  size_t written = 0;
  for (const auto& [c, group] : g.cases)
    if (c.name.rfind(prefix, 0) == 0) probe_case(out, list, c, group, counts), ++written;
  std::fclose(list);
  std::printf("cublas_edge_probe: %zu cases written to %s (cases.txt lists them)\n", written, out.c_str());
  return 0;
}
