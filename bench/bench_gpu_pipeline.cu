// The emulated DGEMM of ozaki2-int8 on the GPU, the stage twins composed on device arrays (fast
// scaling, the exact CRT; the GEMMs through cuBLASLt's INT8 GEMM, or ozref's mma.sync kernel),
// against cuBLAS DGEMM and cuBLAS's INT8 GEMM measured in the same process, on randn data. Each
// figure is the median of 5 timed runs after a warm-up, from CUDA events. Accuracy: a 32 x 32
// block of C (rows and columns spread over the matrix) of each result, with those rows of A and
// columns of B, is written as .npy files into the samples folder, for `ozref check` on any machine
// (the exact product of a block needs no GPU): bench/gpu_accuracy.sh.
// Prints one JSON object per size, then a table.
// Usage: bench_gpu_pipeline SAMPLES_DIR [n ...] (default 4096 8192 16384); OZREF_MODULI=14,16 (default)
#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "gemm/int8_gemm.hpp"
#include "runtime/cuda_check.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "stages/ozaki2/twins.hpp"

using namespace ozref;
using device::DeviceArray;
namespace twins = device::ozaki2;

namespace {

constexpr int kRepeats = 5;
constexpr size_t kSample = 32;

// randn by Box-Muller from a counter hash (splitmix64), on the device.
__device__ uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
__global__ void randn_kernel(double* x, size_t count, uint64_t seed) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= count) return;
  const double u1 = (mix(seed ^ (2 * i)) >> 11) * 0x1p-53 + 0x1p-54, u2 = (mix(seed ^ (2 * i + 1)) >> 11) * 0x1p-53;
  x[i] = sqrt(-2 * log(u1)) * cospi(2 * u2);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Seconds of f, median of kRepeats after one warm-up, by CUDA events.
double timed(const std::function<void()>& f) {
  cudaEvent_t start, stop;
  OZREF_CUDA(cudaEventCreate(&start));
  OZREF_CUDA(cudaEventCreate(&stop));
  f();
  std::vector<double> t;
  for (int r = 0; r < kRepeats; ++r) {
    OZREF_CUDA(cudaEventRecord(start));
    f();
    OZREF_CUDA(cudaEventRecord(stop));
    OZREF_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    OZREF_CUDA(cudaEventElapsedTime(&ms, start, stop));
    t.push_back(ms * 1e-3);
  }
  cudaEventDestroy(start), cudaEventDestroy(stop);
  return median(t);
}

twins::CrtTables tables(const schemes::Crt& crt, size_t words) {
  twins::CrtTables t;
  t.words = words;
  auto put = [&](const mpz_class& x, std::vector<uint64_t>& into) {
    std::vector<uint64_t> w(words, 0);
    size_t count = 0;
    mpz_export(w.data(), &count, -1, sizeof(uint64_t), 0, 0, x.get_mpz_t());
    into.insert(into.end(), w.begin(), w.end());
  };
  for (const mpz_class& w : crt.weights()) put(w, t.weights), t.weights_fp64.push_back(w.get_d());
  put(crt.product(), t.product);
  t.inv_p = crt.double_double_tables().inv_p;
  return t;
}

// The pipeline's buffers for one size and modulus count, and its stages.
struct Pipeline {
  size_t n, N, words;
  std::vector<int64_t> moduli;
  schemes::Crt crt;
  twins::Shape shape;
  DeviceArray<int64_t> dev_moduli;
  DeviceArray<int32_t> row, col, c32;
  DeviceArray<double> ta, tb, c;
  DeviceArray<int8_t> ra, rb;
  DeviceArray<int16_t> reduced;
  DeviceArray<int64_t> wide;
  twins::CrtTables crt_tables;
  std::map<std::string, double> seconds;

  Pipeline(size_t size, size_t count)
      : n(size), N(count), moduli(schemes::int8_moduli().begin(), schemes::int8_moduli().begin() + static_cast<long>(count)), crt(moduli),
        shape{size, size, size, 1, 1, count}, dev_moduli(moduli.data(), moduli.size()), row(size), col(size), c32(size * size), ta(size * size),
        tb(size * size), c(size * size), ra(count * size * size), rb(count * size * size), reduced(count * size * size) {
    words = std::max<size_t>(2, (mpz_sizeinbase(crt.product().get_mpz_t(), 2) + 1 + 63) / 64);
    wide = DeviceArray<int64_t>(size * size * words);
    crt_tables = tables(crt, words);
  }

  void run(const double* a, const double* b, bool cublaslt, bool record) {
    const size_t mn = n * n, nk = n * n;
    const double L = std::log2(crt.product().get_d()) - 2;
    stage("scale", record, [&] { twins::scale_fast(shape, a, b, L, row.get(), col.get()); });
    stage("truncate", record, [&] { twins::truncate(shape, a, b, row.get(), col.get(), ta.get(), tb.get()); });
    stage("residues", record, [&] { twins::residues(shape, ta.get(), tb.get(), dev_moduli.get(), ra.get(), rb.get()); });
    const twins::Shape one{n, n, n, 1, 1, 1};
    for (size_t t = 0; t < N; ++t) {
      stage("gemm", record, [&] {
        if (cublaslt) device::int8_gemm_cublaslt(n, n, n, ra.get() + t * nk, rb.get() + t * nk, c32.get(), nullptr);
        else device::int8_gemm_mma(n, n, n, ra.get() + t * nk, rb.get() + t * nk, c32.get());
      });
      stage("reduce", record, [&] { twins::reduce(one, 1, c32.get(), dev_moduli.get() + t, reduced.get() + t * mn); });
    }
    stage("crt", record, [&] { twins::crt_exact(shape, reduced.get(), crt_tables, wide.get()); });
    stage("unscale", record, [&] { twins::unscale_exact(shape, wide.get(), words, row.get(), col.get(), nullptr, 0, c.get()); });
  }

  void stage(const std::string& name, bool record, const std::function<void()>& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();  // the twins wait for their kernels
    if (record) seconds[name] += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
};

// Rows and columns spread over the matrix: written with each result's block of C for `ozref check`.
struct Sample {
  std::string prefix;  // "<dir>/n<size>_"
  size_t n;
  std::vector<size_t> at;
  Sample(const std::string& dir, const DeviceArray<double>& a, const DeviceArray<double>& b, size_t size)
      : prefix(dir + "/n" + std::to_string(size) + "_"), n(size) {
    for (size_t s = 0; s < kSample; ++s) at.push_back((s * 2654435761u) % n);
    std::vector<double> all(n * n);
    Matrix<double> as(kSample, n), bs(n, kSample);
    a.download(all.data());
    for (size_t s = 0; s < kSample; ++s) std::copy_n(&all[at[s] * n], n, &as.data[s * n]);
    b.download(all.data());
    for (size_t kk = 0; kk < n; ++kk)
      for (size_t s = 0; s < kSample; ++s) bs(kk, s) = all[kk * n + at[s]];
    write_npy(prefix + "a.npy", npy_from_matrix(as));
    write_npy(prefix + "b.npy", npy_from_matrix(bs));
  }
  // c row-major (DGEMM's column-major C^T = B^T A^T is row-major C too).
  void write(const DeviceArray<double>& c, const std::string& name) const {
    std::vector<double> all(n * n);
    c.download(all.data());
    Matrix<double> block(kSample, kSample);
    for (size_t i = 0; i < kSample; ++i)
      for (size_t j = 0; j < kSample; ++j) block(i, j) = all[at[i] * n + at[j]];
    write_npy(prefix + name + ".npy", npy_from_matrix(block));
  }
};

nlohmann::json bench_size(size_t n, const std::vector<size_t>& moduli_counts, cublasHandle_t blas, const std::string& samples) {
  DeviceArray<double> a(n * n), b(n * n), c(n * n);
  randn_kernel<<<device::blocks_for(n * n), 256>>>(a.get(), n * n, 1);
  randn_kernel<<<device::blocks_for(n * n), 256>>>(b.get(), n * n, 2);
  OZREF_CUDA_LAUNCHED();
  const double flops = 2.0 * double(n) * n * n, one = 1, zero = 0;
  nlohmann::json j = {{"n", n}};
  // cuBLAS DGEMM of the row-major A B: column-major C^T = B^T A^T.
  j["dgemm_seconds"] = timed([&] { cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, b.get(), int(n), a.get(), int(n), &zero, c.get(), int(n)); });
  j["dgemm_tflops"] = flops / j["dgemm_seconds"].get<double>() * 1e-12;
  const Sample sample(samples, a, b, n);
  sample.write(c, "dgemm");
  DeviceArray<int8_t> x8(n * n), y8(n * n);
  DeviceArray<int32_t> c32(n * n);
  OZREF_CUDA(cudaMemset(x8.get(), 3, n * n)), OZREF_CUDA(cudaMemset(y8.get(), 5, n * n));
  std::string algorithm;
  j["int8_cublaslt_seconds"] = timed([&] { device::int8_gemm_cublaslt(n, n, n, x8.get(), y8.get(), c32.get(), &algorithm); });
  j["int8_cublaslt_tops"] = flops / j["int8_cublaslt_seconds"].get<double>() * 1e-12;
  j["int8_cublaslt_algorithm"] = algorithm;
  j["int8_mma_seconds"] = timed([&] { device::int8_gemm_mma(n, n, n, x8.get(), y8.get(), c32.get()); });
  j["int8_mma_tops"] = flops / j["int8_mma_seconds"].get<double>() * 1e-12;
  for (size_t N : moduli_counts) {
    Pipeline p(n, N);
    const double t = timed([&] { p.run(a.get(), b.get(), true, false); });
    p.run(a.get(), b.get(), true, true);
    const std::string key = "ozaki2_int8_" + std::to_string(N);
    j[key] = {{"seconds", t}, {"tflops", flops / t * 1e-12}, {"x_dgemm", j["dgemm_seconds"].get<double>() / t}, {"stage_seconds", p.seconds}};
    sample.write(p.c, key);
  }
  return j;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_gpu_pipeline SAMPLES_DIR [n ...]\n");
    return 2;
  }
  const std::string samples = argv[1];
  std::vector<size_t> sizes;
  for (int i = 2; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {4096, 8192, 16384};
  std::vector<size_t> moduli = {14, 16};
  if (const char* env = std::getenv("OZREF_MODULI")) {
    moduli.clear();
    std::stringstream s(env);
    for (std::string item; std::getline(s, item, ',');) moduli.push_back(std::stoul(item));
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "bench_gpu_pipeline: no CUDA device present; nothing was run\n");
    return 77;
  }
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) return 3;
  std::vector<nlohmann::json> all;
  for (size_t n : sizes) {
    all.push_back(bench_size(n, moduli, blas, samples));
    std::printf("%s\n", all.back().dump().c_str());
    std::fflush(stdout);
  }
  std::printf("\n     n  DGEMM TF/s  INT8 cuBLASLt TOP/s  INT8 mma TOP/s   ozaki2-int8 N: TF/s (x DGEMM)\n");
  for (const auto& j : all) {
    std::printf("%6zu  %10.1f  %19.0f  %14.0f  ", j["n"].get<size_t>(), j["dgemm_tflops"].get<double>(), j["int8_cublaslt_tops"].get<double>(),
                j["int8_mma_tops"].get<double>());
    for (size_t N : moduli) {
      const auto& p = j["ozaki2_int8_" + std::to_string(N)];
      std::printf(" %zu: %.1f (%.2fx)", N, p["tflops"].get<double>(), p["x_dgemm"].get<double>());
    }
    std::printf("\n");
  }
  cublasDestroy(blas);
  return 0;
}
