// cublas_emu_replay: runs cuBLAS's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH, strategy EAGER)
// on inputs prepared elsewhere (scripts/cublas_probe_cases.py), for decoding its algorithm
// (docs/third-party.md). Usage: cublas_emu_replay DIR SETTING...; DIR/cases.txt lists "name m n k" per
// line, DIR/<name>_A.bin and _B.bin hold A (m x k) and B (k x n) as raw little-endian f8, column-major.
// For each SETTING (native, dynamic, fixed<bits>) it writes DIR/<name>_<SETTING>_C.bin (m x n, column-
// major) on a fresh handle, and DIR/bits.txt: "name setting bits" with the mantissa bits cuBLAS reports.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "cublas_emu_replay: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? 77 : 1);
}

void check(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  std::fprintf(stderr, "cublas_emu_replay: %s: cuBLAS status %d\n", what, static_cast<int>(s));
  std::exit(1);
}

std::vector<double> read_raw(const std::string& path, size_t count) {
  std::vector<double> v(count);
  std::ifstream f(path, std::ios::binary);
  if (!f.read(reinterpret_cast<char*>(v.data()), std::streamsize(count * sizeof(double)))) {
    std::fprintf(stderr, "cublas_emu_replay: cannot read %zu doubles from %s\n", count, path.c_str());
    std::exit(2);
  }
  return v;
}

void write_raw(const std::string& path, const std::vector<double>& v) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(v.data()), std::streamsize(v.size() * sizeof(double)));
  if (!f) {
    std::fprintf(stderr, "cublas_emu_replay: cannot write %s\n", path.c_str());
    std::exit(1);
  }
}

// C = A B on a fresh handle under SETTING; returns C and sets bits to what cuBLAS reports (-1: native).
std::vector<double> run(const std::vector<double>& ha, const std::vector<double>& hb, int m, int n, int k,
                        const std::string& setting, int& bits) {
  cublasHandle_t h;
  check(cublasCreate(&h), "cublasCreate");
  int* used;
  check(cudaMalloc(&used, sizeof(int)), "cudaMalloc");
  if (setting != "native") {
    check(cublasSetMathMode(h, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH), "emulated math");
    check(cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER), "eager");
    const bool dynamic = setting == "dynamic";
    check(cublasSetFixedPointEmulationMantissaControl(
              h, dynamic ? CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC : CUDA_EMULATION_MANTISSA_CONTROL_FIXED),
          "mantissa control");
    if (!dynamic) check(cublasSetFixedPointEmulationMaxMantissaBitCount(h, std::stoi(setting.substr(5))), "bit count");
    check(cudaMemset(used, 0xFF, sizeof(int)), "cudaMemset");
    check(cublasSetFixedPointEmulationMantissaBitCountPointer(h, used), "bit count pointer");
  }
  double *a, *b, *c;
  check(cudaMalloc(&a, ha.size() * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&b, hb.size() * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&c, size_t(m) * n * sizeof(double)), "cudaMalloc");
  check(cudaMemcpy(a, ha.data(), ha.size() * sizeof(double), cudaMemcpyHostToDevice), "copy A");
  check(cudaMemcpy(b, hb.data(), hb.size() * sizeof(double), cudaMemcpyHostToDevice), "copy B");
  const double one = 1, zero = 0;
  check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m), "cublasDgemm");
  std::vector<double> out(size_t(m) * n);
  check(cudaMemcpy(out.data(), c, out.size() * sizeof(double), cudaMemcpyDeviceToHost), "copy C");
  bits = -1;
  if (setting != "native") check(cudaMemcpy(&bits, used, sizeof bits, cudaMemcpyDeviceToHost), "copy bits");
  cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(used);
  check(cublasDestroy(h), "cublasDestroy");
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cublas_emu_replay DIR SETTING...\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::ifstream list(dir + "/cases.txt");
  std::ofstream bits_out(dir + "/bits.txt");
  std::string line;
  while (std::getline(list, line)) {
    std::istringstream in(line);
    std::string name;
    int m, n, k;
    if (!(in >> name >> m >> n >> k)) continue;
    const auto a = read_raw(dir + "/" + name + "_A.bin", size_t(m) * k);
    const auto b = read_raw(dir + "/" + name + "_B.bin", size_t(k) * n);
    for (int s = 2; s < argc; ++s) {
      int bits = -1;
      write_raw(dir + "/" + name + "_" + argv[s] + "_C.bin", run(a, b, m, n, k, argv[s], bits));
      bits_out << name << ' ' << argv[s] << ' ' << bits << '\n';
    }
  }
  std::printf("cublas_emu_replay: done\n");
  return 0;
}
