// cublas_emu_probe: black-box probes of cuBLAS's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH,
// emulation strategy EAGER), for decoding its algorithm (docs/third-party.md): crafted inputs that
// isolate one question each, run natively and emulated at every fixed mantissa setting and at the
// dynamic one, with the mantissa bit count the dynamic control chose.
// Usage: cublas_emu_probe OUT_DIR [seed]. Writes, per case, OUT_DIR/<case>_A.npy and _B.npy (f8,
// Fortran order, the layout cuBLAS reads), OUT_DIR/<case>_<setting>_C.npy for the settings
// native, dynamic and fixed23 ... fixed79 (every 8 bits), each on a fresh handle, and
// OUT_DIR/cases.txt: one line per case, "<case> m n k" and each setting's retained mantissa bits as
// cuBLAS reports them through cublasSetFixedPointEmulationMantissaBitCountPointer. The cases:
//   slicing      k = 1, B = 1: C = how each a (random 53-bit significands, both signs, exponents
//                -40..40) survives the conversion at each setting (truncation or rounding, where).
//   products     k = 1, a and b both random: which slice products are kept (C = the kept sum).
//   row_scale    k = 2, A = [2^e, x], B = [0; 1]: x at 0..70 binades below its row's largest
//                element, so C shows the bits x keeps under a per-row power-of-two scale.
//   col_scale    the same for a column of B (A = [0, 1], B = [2^e; x]).
//   accumulate   k = 4096, rows of A with cancellation (a sum of large terms that cancel plus small
//                ones): the order and width in which slice products are summed.
//   rounding     k = 1, exact products of 60..100 bits just above, at and below FP64 midpoints:
//                the final rounding.
//   dynamic      random matrices whose rows span 0..60 binades: the mantissa bits chosen.
// Self-contained (CUDA runtime and cuBLAS) so that it runs on a bare GPU host.
#include "cublas_probe_io.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

using cublas_probe::check;
using cublas_probe::write_npy;
using cublas_probe::Case;
using cublas_probe::gemm;

double random_significand(std::mt19937_64& r, int exponent) {  // a random 53-bit significand times 2^exponent
  const uint64_t sig = (r() >> 11) | (1ull << 52);
  return std::ldexp(static_cast<double>(sig), exponent - 52) * (r() & 1 ? -1 : 1);
}

std::vector<Case> cases(uint64_t seed) {
  std::mt19937_64 r(seed);
  std::vector<Case> all;
  auto make = [&](const std::string& name, size_t m, size_t n, size_t k, const std::function<double(size_t, size_t)>& fa,
                  const std::function<double(size_t, size_t)>& fb) {
    Case c{name, m, n, k, std::vector<double>(m * k), std::vector<double>(k * n)};
    for (size_t j = 0; j < k; ++j)
      for (size_t i = 0; i < m; ++i) c.a[j * m + i] = fa(i, j);
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < k; ++i) c.b[j * k + i] = fb(i, j);
    all.push_back(std::move(c));
  };
  make("slicing", 1024, 1, 1, [&](size_t i, size_t) { return random_significand(r, int(i % 81) - 40); }, [](size_t, size_t) { return 1.0; });
  std::vector<double> bs(64);
  for (double& v : bs) v = random_significand(r, 0);
  make("products", 1024, 64, 1, [&](size_t, size_t) { return random_significand(r, 0); }, [&](size_t, size_t j) { return bs[j]; });
  make("row_scale", 71 * 8, 1, 2, [&](size_t i, size_t j) { return j == 0 ? std::ldexp(1.0, 10) : random_significand(r, 10 - int(i / 8)); },
       [](size_t i, size_t) { return i == 1 ? 1.0 : 0.0; });
  make("col_scale", 1, 71 * 8, 2, [](size_t, size_t j) { return j == 1 ? 1.0 : 0.0; },
       [&](size_t i, size_t j) { return i == 0 ? std::ldexp(1.0, 10) : random_significand(r, 10 - int(j / 8)); });
  make("accumulate", 256, 8, 4096,
       [&](size_t i, size_t j) { return j < 8 ? std::ldexp((j % 2 ? -1.0 : 1.0), 40) : random_significand(r, -int(i % 64)); },
       [&](size_t, size_t) { return random_significand(r, 0); });
  // rounding: a = 1 + i 2^-52 style significands times b = 1 + j 2^-k, exact products of 60..100 bits
  make("rounding", 512, 1, 1, [&](size_t i, size_t) { return 1.0 + std::ldexp(double(i | 1), -52) * (1 << (i % 20)); },
       [](size_t, size_t) { return 1.0 + 0x1p-40 + 0x1p-52; });
  make("dynamic", 128, 128, 512, [&](size_t i, size_t) { return random_significand(r, -int(r() % (1 + i / 2))); },
       [&](size_t, size_t) { return random_significand(r, int(r() % 8)); });
  return all;
}

// One run of a case under one setting, on a fresh handle: "native", "fixed<bits>" or "dynamic".
// Returns C and the retained mantissa bits cuBLAS reported (-1: no emulation).
std::vector<double> run(const Case& c, const std::string& setting, int* used_bits, int& bits_used) {
  cublasHandle_t h;
  check(cublasCreate(&h), "cublasCreate");
  if (setting != "native") {
    check(cublasSetMathMode(h, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH), "emulated math");
    check(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER), "eager");
    const bool dynamic = setting == "dynamic";
    check(cublasSetFixedPointEmulationMantissaControl(h, dynamic ? CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC : CUDA_EMULATION_MANTISSA_CONTROL_FIXED),
          "mantissa control");
    if (!dynamic) check(cublasSetFixedPointEmulationMaxMantissaBitCount(h, std::stoi(setting.substr(5))), "bit count");
    check(cudaMemset(used_bits, 0xFF, sizeof(int)), "cudaMemset");
    check(cublasSetFixedPointEmulationMantissaBitCountPointer(h, used_bits), "bit count pointer");
  }
  std::vector<double> out;
  check(gemm(h, c, out), "cublasDgemm");
  bits_used = -1;
  if (setting != "native") check(cudaMemcpy(&bits_used, used_bits, sizeof bits_used, cudaMemcpyDeviceToHost), "copy bit count");
  check(cublasDestroy(h), "cublasDestroy");
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: cublas_emu_probe OUT_DIR [seed]\n");
    return 2;
  }
  const std::string out = argv[1];
  const uint64_t seed = argc == 3 ? std::strtoull(argv[2], nullptr, 0) : 20261202;
  int devices = 0;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  int* used_bits;
  check(cudaMalloc(&used_bits, sizeof(int)), "cudaMalloc");
  FILE* list = std::fopen((out + "/cases.txt").c_str(), "w");
  if (!list) return 1;
  std::fprintf(list, "# cublas_emu_probe seed %llu: case m n k, then each setting's retained mantissa bits (-1: not emulated)\n",
               static_cast<unsigned long long>(seed));
  std::vector<std::string> settings = {"native", "dynamic"};
  for (int bits = 23; bits <= 79; bits += 8) settings.push_back("fixed" + std::to_string(bits));
  for (const Case& c : cases(seed)) {
    write_npy(out + "/" + c.name + "_A.npy", c.m, c.k, c.a);
    write_npy(out + "/" + c.name + "_B.npy", c.k, c.n, c.b);
    std::fprintf(list, "%s %zu %zu %zu", c.name.c_str(), c.m, c.n, c.k);
    for (const std::string& s : settings) {
      int bits = -1;
      write_npy(out + "/" + c.name + "_" + s + "_C.npy", c.m, c.n, run(c, s, used_bits, bits));
      std::fprintf(list, " %s=%d", s.c_str(), bits);
    }
    std::fprintf(list, "\n");
  }
  std::fclose(list);
  std::printf("cublas_emu_probe: cases written to %s (cases.txt lists them)\n", out.c_str());
  return 0;
}
