// The emulated DGEMM (and ZGEMM: 3M, and the Gaussian-moduli product) of ozaki2-int8 on the GPU, the stage twins composed on device
// arrays (fast scaling, the exact CRT; the GEMMs through cuBLASLt's INT8 GEMM and the reduce twin,
// or through ozref's wgmma kernel with the reduction fused), against cuBLAS DGEMM, ZGEMM and
// cuBLASLt's INT8 GEMM measured in the same process, on randn data. Each
// figure is the median of 5 timed runs after a warm-up, from CUDA events. Accuracy: every element of
// C against the exact product, computed once per size on the GPU (whole_product_accuracy.hpp; the
// complex runs' and ZGEMM's part by part against the exact complex product), in the max norm and
// element-wise; the table then names the fastest real run as accurate as DGEMM on both, and the
// fastest complex run as accurate as ZGEMM. Of every real run, also a 32 x 32
// block of C (rows and columns spread over the matrix) of each result, with those rows of A and
// columns of B, is written as .npy files into the samples folder, for `ozref check` on any machine
// (the exact product of a block needs no GPU): bench/gpu_accuracy.sh.
// Prints one JSON object per size, then a table.
// Usage: bench_gpu_pipeline SAMPLES_DIR [n ...] (default 4096 8192 16384); OZREF_MODULI=14,16 (default);
// OZREF_COMPLEX_MAX=8192 (the largest n of the complex runs); OZREF_GAUSSIAN_MODULI=15,16 (default:
// the Gaussian complex runs' moduli counts; 15 Gaussian moduli hold 111.1 bits, 14 standard 110.2).
// The moduli themselves are those the scheme registry resolves for `ozaki2-int8 --moduli N --mode
// fast` (pipeline_moduli.hpp); a count it refuses, or one that is not a number: exit 2 before any GPU work.
// OZREF_SUSTAINED=1 adds each INT8 GEMM's
// throughput after a second of back-to-back calls ("sustained_tops", stderr names each window)
#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "io/npy.hpp"
#include "ozref/error.hpp"
#include "gemm/int8_gemm.hpp"
#include "gemm/wgmma_gemm.hpp"
#include "runtime/cuda_check.hpp"
#include "host_residues.hpp"
#include "pipeline_moduli.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/ozaki2/complex_product.hpp"
#include "stages/ozaki2/crt_tables.hpp"
#include "stages/ozaki2/twins.hpp"
#include "whole_product_accuracy.hpp"

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

// The wall clock as "HH:MM:SS.mmm" UTC, to line a window up with an nvidia-smi log.
std::string utc_now() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t secs = std::chrono::system_clock::to_time_t(now);
  const long ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  char text[32];
  std::strftime(text, sizeof text, "%H:%M:%S", std::gmtime(&secs));
  return std::string(text) + "." + std::to_string(1000 + ms).substr(1);
}

// Prints the UTC window of `calls` calls named `name` on stderr (bench/smi_windows.py reads it).
void print_window(const std::string& name, size_t calls, const std::string& from) {
  std::fprintf(stderr, "window %s: %zu calls from %s to %s UTC\n", name.c_str(), calls, from.c_str(), utc_now().c_str());
}

// Seconds of f, median of kRepeats after one warm-up, by CUDA events.
double timed(const std::function<void()>& f, const std::string& name) {
  cudaEvent_t start, stop;
  OZREF_CUDA(cudaEventCreate(&start));
  OZREF_CUDA(cudaEventCreate(&stop));
  f();
  const std::string from = utc_now();
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
  print_window(name, kRepeats, from);
  return median(t);
}

// Seconds per call of f once the GPU has run it back to back for `warm` seconds (long enough
// for the power limit to pull the clocks down), over the calls of the next `window` seconds.
// A single call of a large GEMM is short enough to run at the boost clock; a pipeline of 14 is
// not, so this is the figure to hold a pipeline's GEMM time against.
double sustained(const std::function<void()>& f, const std::string& name, double warm = 1.0, double window = 2.0) {
  const auto wall = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  for (const double t0 = wall(); wall() - t0 < warm;) f(), OZREF_CUDA(cudaDeviceSynchronize());
  const std::string from = utc_now();
  size_t calls = 0;
  const double t0 = wall();
  for (; wall() - t0 < window; ++calls) f();
  OZREF_CUDA(cudaDeviceSynchronize());
  const double seconds = wall() - t0;
  print_window(name + " sustained", calls, from);
  return seconds / double(calls);
}

// The GEMM stage's path: cuBLASLt's INT8 GEMM then the reduce twin (what a user would pick), and
// the crt and unscale twins; or ozref's wgmma kernel with the reduction fused into its epilogue,
// and crt and unscale in one kernel.
enum class GemmPath { Cublaslt, WgmmaFused };
const char* path_name(GemmPath p) { return p == GemmPath::Cublaslt ? "cublaslt" : "wgmma_fused"; }

// The pipeline's buffers for one size, modulus count and part count (1 real, 2 complex: 3M, or
// the Gaussian product), and its stages on device arrays.
struct Pipeline {
  size_t n, S, P, N = 0, words = 0;
  std::vector<int64_t> moduli;
  schemes::Crt crt;
  twins::Shape shape;
  DeviceArray<int64_t> dev_moduli;
  DeviceArray<int32_t> gaussian;  // the Gaussian product's constants; empty otherwise
  DeviceArray<int32_t> row, col, c32;
  DeviceArray<double> ta, tb, c;
  DeviceArray<int8_t> ra, rb;
  DeviceArray<int16_t> reduced, combined;
  DeviceArray<int64_t> wide;
  twins::CrtTables crt_tables;
  std::map<std::string, double> seconds;

  Pipeline(size_t size, const std::vector<int64_t>& resolved, size_t parts, schemes::ComplexProduct product = schemes::ComplexProduct::ThreeM)
      : n(size), S(parts), P(parts == 1 ? 1 : product == schemes::ComplexProduct::Gaussian ? 2 : 3),
        moduli(resolved), crt(moduli), dev_moduli(moduli.data(), moduli.size()),
        gaussian(P == 2 ? twins::gaussian_constants_on_device(moduli) : DeviceArray<int32_t>()),
        row(size), col(size), c32(size * size) {
    N = moduli.size();
    shape = {size, size, size, S, P, N};
    const size_t nn = size * size;
    ta = DeviceArray<double>(S * nn), tb = DeviceArray<double>(S * nn), c = DeviceArray<double>(S * nn);
    ra = DeviceArray<int8_t>(N * P * nn), rb = DeviceArray<int8_t>(N * P * nn);
    reduced = DeviceArray<int16_t>(N * P * nn), combined = DeviceArray<int16_t>(S == 2 ? N * 2 * nn : 0);
    crt_tables = twins::crt_tables(crt);
    words = crt_tables.words;
    wide = DeviceArray<int64_t>(S * size * size * words);
  }

  void run(const double* a, const double* b, GemmPath path, bool record) {
    const double L = std::log2(crt.product().get_d()) - 2;
    stage("scale", record, [&] { twins::scale_fast(shape, a, b, L, row.get(), col.get()); });
    if (path == GemmPath::WgmmaFused) {
      stage("truncate+residues", record, [&] { twins::truncate_residues(shape, a, b, row.get(), col.get(), dev_moduli.get(), gaussian.get(), ra.get(), rb.get()); });
    } else {
      stage("truncate", record, [&] { twins::truncate(shape, a, b, row.get(), col.get(), ta.get(), tb.get()); });
      stage("residues", record, [&] { twins::residues(shape, ta.get(), tb.get(), dev_moduli.get(), gaussian.get(), ra.get(), rb.get()); });
    }
    if (path == GemmPath::WgmmaFused) stage("gemm+reduce", record, [&] { fused_gemms(); });
    else
      for (size_t plane = 0; plane < N * P; ++plane) gemm(plane, record);
    if (path == GemmPath::WgmmaFused && S == 2) {  // the complex stage's combination inside the CRT
      stage("complex+crt+unscale", record, [&] {
        if (P == 2) twins::gaussian_crt_unscale_exact(shape, reduced.get(), moduli, crt_tables, row.get(), col.get(), c.get());
        else twins::three_m_crt_unscale_exact(shape, reduced.get(), moduli, crt_tables, row.get(), col.get(), c.get());
      });
      return;
    }
    if (S == 2) stage("complex", record, [&] {
        if (P == 2) twins::combine_gaussian(shape, reduced.get(), dev_moduli.get(), gaussian.get(), combined.get());
        else twins::combine_3m(shape, reduced.get(), dev_moduli.get(), combined.get());
      });
    const int16_t* residues = S == 2 ? combined.get() : reduced.get();
    if (path == GemmPath::WgmmaFused) {
      stage("crt+unscale", record, [&] { twins::crt_unscale_exact(shape, residues, crt_tables, row.get(), col.get(), c.get()); });
      return;
    }
    stage("crt", record, [&] { twins::crt_exact(shape, residues, crt_tables, wide.get()); });
    stage("unscale", record, [&] { twins::unscale_exact(shape, wide.get(), words, row.get(), col.get(), nullptr, 0, c.get()); });
  }

  // Every residue plane of A times B's, reduced (plane p modulo modulus p / P), in one launch.
  void fused_gemms() {
    std::vector<int64_t> plane_moduli(N * P);
    for (size_t plane = 0; plane < N * P; ++plane) plane_moduli[plane] = moduli[plane / P];
    device::wgmma_gemm_reduced(n, n, n, ra.get(), rb.get(), plane_moduli, reduced.get());
  }

  // Residue plane `plane` (modulus plane / P) of A times B's through cuBLASLt, then reduced.
  void gemm(size_t plane, bool record) {
    const size_t nn = n * n;
    const int8_t *x = ra.get() + plane * nn, *y = rb.get() + plane * nn;
    int16_t* out = reduced.get() + plane * nn;
    stage("gemm", record, [&] { device::int8_gemm_cublaslt(n, n, n, x, y, c32.get(), nullptr); });
    const twins::Shape one{n, n, n, 1, 1, 1};
    stage("reduce", record, [&] { twins::reduce(one, 1, c32.get(), dev_moduli.get() + plane / P, out); });
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
    std::filesystem::create_directories(dir);
    std::vector<double> all(a.size());  // the first n x n: the real part
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
    std::vector<double> all(c.size());  // the first n x n: the real part
    c.download(all.data());
    Matrix<double> block(kSample, kSample);
    for (size_t i = 0; i < kSample; ++i)
      for (size_t j = 0; j < kSample; ++j) block(i, j) = all[at[i] * n + at[j]];
    write_npy(prefix + name + ".npy", npy_from_matrix(block));
  }
};

// Random bytes (INT8 operands), from the same counter hash.
__global__ void random_bytes_kernel(int8_t* x, size_t count, uint64_t seed) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count) x[i] = static_cast<int8_t>(mix(seed ^ i) >> 56);
}

// INT8 GEMMs on random operands: cuBLASLt, ozref's wgmma kernel (raw and with the reduction fused)
// and its mma.sync kernel.
void bench_int8(size_t n, nlohmann::json& j) {
  const double ops = 2.0 * double(n) * n * n;
  DeviceArray<int8_t> x8(n * n), y8(n * n);
  DeviceArray<int32_t> c32(n * n);
  DeviceArray<int16_t> r16(n * n);
  random_bytes_kernel<<<device::blocks_for(n * n), 256>>>(x8.get(), n * n, 3);
  random_bytes_kernel<<<device::blocks_for(n * n), 256>>>(y8.get(), n * n, 5);
  OZREF_CUDA_LAUNCHED();
  std::string algorithm;
  const auto u8 = [](const int8_t* p) { return reinterpret_cast<const uint8_t*>(p); };
  const std::map<std::string, std::function<void()>> kernels = {
      {"int8_cublaslt", [&] { device::int8_gemm_cublaslt(n, n, n, x8.get(), y8.get(), c32.get(), &algorithm); }},
      {"int8_wgmma", [&] { device::wgmma_gemm(device::WgmmaOp::S8S8, n, n, n, u8(x8.get()), u8(y8.get()), reinterpret_cast<uint32_t*>(c32.get())); }},
      {"int8_wgmma_reduced", [&] { device::wgmma_gemm_reduced(n, n, n, x8.get(), y8.get(), {251}, r16.get()); }},
      {"int8_mma_sync", [&] { device::int8_gemm_mma(n, n, n, x8.get(), y8.get(), c32.get()); }}};
  for (const auto& [name, run] : kernels) {
    const std::string label = name + " n=" + std::to_string(n);
    const double t = timed(run, label);
    j[name] = {{"seconds", t}, {"tops", ops / t * 1e-12}};
    if (std::getenv("OZREF_SUSTAINED")) j[name]["sustained_tops"] = ops / sustained(run, label) * 1e-12;
  }
  j["int8_cublaslt"]["algorithm"] = algorithm;
  j["int8_wgmma"]["x_cublaslt"] = j["int8_wgmma"]["tops"].get<double>() / j["int8_cublaslt"]["tops"].get<double>();
  j["int8_wgmma_reduced"]["x_cublaslt"] = j["int8_wgmma_reduced"]["tops"].get<double>() / j["int8_cublaslt"]["tops"].get<double>();
}

// The batched fused GEMM (one launch for every plane) against its parts: each plane through the
// raw wgmma kernel, the one the lockstep holds to the sm_90 model, reduced on the host by the CPU's
// balanced_residue. The shapes make tiles straddle planes (m, n not multiples of the 128 x 256
// tile: a plane's last tile loads the next plane's rows) and K need padding. Returns the number of
// differing residues; the counts go into j.
size_t check_fused_batch(nlohmann::json& j) {
  struct Case {
    size_t planes, m, n, k;
  };
  const std::vector<int64_t> moduli = {241, 233, 229, 255, 3, 127, 256};
  size_t differing = 0, compared = 0;
  for (const Case& c : {Case{3, 200, 300, 100}, Case{5, 1000, 7, 33}, Case{7, 129, 257, 4097}}) {
    DeviceArray<int8_t> a(c.planes * c.m * c.k), b(c.planes * c.n * c.k);
    DeviceArray<int32_t> raw(c.m * c.n);
    DeviceArray<int16_t> fused(c.planes * c.m * c.n);
    random_bytes_kernel<<<device::blocks_for(a.size()), 256>>>(a.get(), a.size(), 11 + c.m);
    random_bytes_kernel<<<device::blocks_for(b.size()), 256>>>(b.get(), b.size(), 13 + c.n);
    OZREF_CUDA_LAUNCHED();
    fused.fill_bytes(0x5A);  // a canary: 0x5A5A is no balanced residue of these moduli
    const std::vector<int64_t> plane_moduli(moduli.begin(), moduli.begin() + c.planes);
    device::wgmma_gemm_reduced(c.m, c.n, c.k, a.get(), b.get(), plane_moduli, fused.get());
    std::vector<int16_t> got(fused.size());
    fused.download(got.data());
    std::vector<int32_t> sums(c.m * c.n);
    for (size_t p = 0; p < c.planes; ++p) {
      const auto* x = reinterpret_cast<const uint8_t*>(a.get() + p * c.m * c.k);
      const auto* y = reinterpret_cast<const uint8_t*>(b.get() + p * c.n * c.k);
      device::wgmma_gemm(device::WgmmaOp::S8S8, c.m, c.n, c.k, x, y, reinterpret_cast<uint32_t*>(raw.get()));
      raw.download(sums.data());
      const std::vector<int16_t> expected = bench::balanced_residues_of(sums, plane_moduli[p]);
      for (size_t v = 0; v < sums.size(); ++v, ++compared) differing += got[p * sums.size() + v] != expected[v];
    }
  }
  j["fused_batch_check"] = {{"residues_compared", compared}, {"differing", differing}};
  return differing;
}

// cuBLAS ZGEMM against the 3M emulation on the same randn parts (planar for the pipeline,
// interleaved for ZGEMM).
__global__ void interleave_kernel(const double* planar, size_t count, double* interleaved) {
  const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < count) interleaved[2 * i] = planar[i], interleaved[2 * i + 1] = planar[count + i];
}

nlohmann::json bench_pipeline(Pipeline& p, const double* a, const double* b, GemmPath path, double flops, double reference_seconds);
std::vector<double> first_elements(const DeviceArray<double>& x, size_t count);
bench::WholeProductAccuracy complex_whole_product_accuracy(const DeviceArray<double>& a, const DeviceArray<double>& b, size_t n);
void bench_both_paths(Pipeline& p, const double* a, const double* b, double flops, double reference_seconds, const std::string& key, nlohmann::json& j,
                      const std::function<void(const Pipeline&, const std::string&)>& written = {});

// The moduli counts of the runs: OZREF_MODULI's (real and 3M) and OZREF_GAUSSIAN_MODULI's.
struct ModuliCounts {
  std::vector<size_t> standard, gaussian;
};

// Every run's moduli, by (n, count, complex, gaussian).
using RunModuli = std::map<std::tuple<size_t, size_t, bool, bool>, std::vector<int64_t>>;

// A positive integer written in decimal digits only; InputError naming `what` and `example` otherwise.
size_t positive_integer(const std::string& item, const std::string& what, const char* example) {
  const bool digits = !item.empty() && item.size() <= 12 && item.find_first_not_of("0123456789") == std::string::npos;
  const unsigned long long value = digits ? std::strtoull(item.c_str(), nullptr, 10) : 0;
  if (value == 0) throw InputError(what + ": '" + item + "' is not a positive " + example);
  return value;
}

// The moduli counts of an environment variable's list ("15,16"), or `fallback`; InputError naming
// the variable for an item that is not a positive integer.
std::vector<size_t> counts_from(const char* variable, std::vector<size_t> fallback) {
  const char* env = std::getenv(variable);
  if (!env) return fallback;
  std::vector<size_t> counts;
  std::stringstream s(env);
  for (std::string item; std::getline(s, item, ',');) counts.push_back(positive_integer(item, variable, "moduli count (a list like 14,16)"));
  return counts;
}

// Every run's moduli, resolved once before the GPU work, so that a count the scheme refuses stops
// the bench at once (InputError naming the variable).
RunModuli resolve_every_run(const ModuliCounts& counts, const std::vector<size_t>& sizes, size_t complex_limit) {
  RunModuli runs;
  for (size_t n : sizes) {
    const auto check = [&](const char* variable, size_t count, bool complex, bool gaussian) {
      try {
        runs[{n, count, complex, gaussian}] = bench::pipeline_moduli(n, count, complex, gaussian);
      } catch (const InputError& e) {
        throw InputError(std::string(variable) + ": " + e.what());
      }
    };
    for (size_t count : counts.standard) check("OZREF_MODULI", count, false, false);
    if (n > complex_limit) continue;
    for (size_t count : counts.standard) check("OZREF_MODULI", count, true, false);
    for (size_t count : counts.gaussian) check("OZREF_GAUSSIAN_MODULI", count, true, true);
  }
  return runs;
}

void bench_complex(size_t n, const ModuliCounts& counts, const RunModuli& runs, cublasHandle_t blas, const DeviceArray<double>& da,
                   const DeviceArray<double>& db, nlohmann::json& j) {
  const size_t nn = n * n;
  const double *a = da.get(), *b = db.get();
  const double flops = 8.0 * double(n) * n * n;
  DeviceArray<double> za(2 * nn), zb(2 * nn), zc(2 * nn);
  interleave_kernel<<<device::blocks_for(nn), 256>>>(a, nn, za.get());
  interleave_kernel<<<device::blocks_for(nn), 256>>>(b, nn, zb.get());
  OZREF_CUDA_LAUNCHED();
  const cuDoubleComplex one{1, 0}, zero{0, 0};
  const auto* x = reinterpret_cast<const cuDoubleComplex*>(za.get());
  const auto* y = reinterpret_cast<const cuDoubleComplex*>(zb.get());
  auto* z = reinterpret_cast<cuDoubleComplex*>(zc.get());
  j["zgemm_seconds"] = timed(
      [&] { cublasZgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, y, int(n), x, int(n), &zero, z, int(n)); },
      "zgemm n=" + std::to_string(n));
  j["zgemm_tflops"] = flops / j["zgemm_seconds"].get<double>() * 1e-12;
  const double zgemm = j["zgemm_seconds"].get<double>();
  const bench::WholeProductAccuracy whole = complex_whole_product_accuracy(da, db, n);
  j["exact_complex_product_gpu_seconds"] = whole.exact_seconds();
  j["accuracy_zgemm"] = whole.of(first_elements(zc, 2 * nn));
  const auto measured = [&](const Pipeline& run, const std::string& name) {  // the pipeline's C is planar: Re, then Im
    interleave_kernel<<<device::blocks_for(nn), 256>>>(run.c.get(), nn, zc.get());
    OZREF_CUDA_LAUNCHED();
    j["accuracy_" + name] = whole.of(first_elements(zc, 2 * nn));
  };
  for (size_t N : counts.standard) {
    Pipeline p(n, runs.at({n, N, true, false}), 2);
    bench_both_paths(p, a, b, flops, zgemm, "ozaki2_int8_3m_" + std::to_string(N), j, measured);
  }
  for (size_t N : counts.gaussian) {
    Pipeline p(n, runs.at({n, N, true, true}), 2, schemes::ComplexProduct::Gaussian);
    bench_both_paths(p, a, b, flops, zgemm, "ozaki2_int8_gaussian_" + std::to_string(N), j, measured);
  }
}

// The fused path (truncate+residues, gemm+reduce, crt+unscale) composes the same element functions
// as the stage twins the lockstep holds to the CPU, so its C must equal the unfused path's bit for bit.
size_t differing_elements(const DeviceArray<double>& c, const std::vector<double>& expected) {
  std::vector<double> got(c.size());
  c.download(got.data());
  size_t differing = 0;
  for (size_t i = 0; i < got.size(); ++i) differing += std::memcmp(&got[i], &expected[i], sizeof(double)) != 0;
  return differing;
}

// Both GEMM paths of one configuration as key_<path>, the fused path's C compared with the other's
// bit for bit; `written` (if given) sees each path's result.
void bench_both_paths(Pipeline& p, const double* a, const double* b, double flops, double reference_seconds, const std::string& key, nlohmann::json& j,
                      const std::function<void(const Pipeline&, const std::string&)>& written) {
  std::vector<double> unfused(p.c.size());
  for (GemmPath path : {GemmPath::Cublaslt, GemmPath::WgmmaFused}) {
    const std::string name = key + "_" + path_name(path);
    j[name] = bench_pipeline(p, a, b, path, flops, reference_seconds);
    if (written) written(p, name);
    if (path == GemmPath::Cublaslt) p.c.download(unfused.data());
    else j[name]["elements_differing_from_cublaslt_path"] = differing_elements(p.c, unfused);
  }
}

// One pipeline configuration, timed, its stage times recorded by one more run.
nlohmann::json bench_pipeline(Pipeline& p, const double* a, const double* b, GemmPath path, double flops, double reference_seconds) {
  const double t = timed([&] { p.run(a, b, path, false); }, "ozaki2-int8 " + std::to_string(p.N) + (p.S == 1 ? " " : p.P == 2 ? " gaussian " : " 3m ") + path_name(path) + " n=" + std::to_string(p.n));
  p.seconds.clear();
  p.run(a, b, path, true);
  return {{"seconds", t}, {"tflops", flops / t * 1e-12}, {"x_cublas", reference_seconds / t}, {"stage_seconds", p.seconds}};
}

// The first `count` elements of a device array (the real part of the complex runs' arrays).
std::vector<double> first_elements(const DeviceArray<double>& x, size_t count) {
  std::vector<double> host(count);
  OZREF_CUDA(cudaMemcpy(host.data(), x.get(), count * sizeof(double), cudaMemcpyDeviceToHost));
  return host;
}

// The host copy of part `part` (0: real, 1: imaginary) of a planar n x n device array.
Matrix<double> host_part(const DeviceArray<double>& x, size_t n, size_t part) {
  Matrix<double> h(n, n);
  OZREF_CUDA(cudaMemcpy(h.data.data(), x.get() + part * n * n, n * n * sizeof(double), cudaMemcpyDeviceToHost));
  return h;
}

bench::WholeProductAccuracy whole_product_accuracy(const DeviceArray<double>& a, const DeviceArray<double>& b, size_t n) {
  return bench::WholeProductAccuracy(host_part(a, n, 0), host_part(b, n, 0));
}

bench::WholeProductAccuracy complex_whole_product_accuracy(const DeviceArray<double>& a, const DeviceArray<double>& b, size_t n) {
  return bench::WholeProductAccuracy(host_part(a, n, 0), host_part(a, n, 1), host_part(b, n, 0), host_part(b, n, 1));
}

nlohmann::json bench_size(size_t n, const ModuliCounts& counts, const RunModuli& runs, cublasHandle_t blas, const std::string& samples, bool complex) {
  DeviceArray<double> a(2 * n * n), b(2 * n * n), c(2 * n * n);  // two parts, for the complex runs
  randn_kernel<<<device::blocks_for(2 * n * n), 256>>>(a.get(), 2 * n * n, 1);
  randn_kernel<<<device::blocks_for(2 * n * n), 256>>>(b.get(), 2 * n * n, 2);
  OZREF_CUDA_LAUNCHED();
  const double flops = 2.0 * double(n) * n * n, one = 1, zero = 0;
  nlohmann::json j = {{"n", n}};
  // cuBLAS DGEMM of the row-major A B: column-major C^T = B^T A^T.
  j["dgemm_seconds"] = timed(
      [&] { cublasDgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, b.get(), int(n), a.get(), int(n), &zero, c.get(), int(n)); },
      "dgemm n=" + std::to_string(n));
  j["dgemm_tflops"] = flops / j["dgemm_seconds"].get<double>() * 1e-12;
  const Sample sample(samples, a, b, n);
  sample.write(c, "dgemm");
  const bench::WholeProductAccuracy whole = whole_product_accuracy(a, b, n);
  j["exact_product_gpu_seconds"] = whole.exact_seconds();
  j["accuracy_dgemm"] = whole.of(first_elements(c, n * n));
  bench_int8(n, j);
  for (size_t N : counts.standard) {
    Pipeline p(n, runs.at({n, N, false, false}), 1);
    bench_both_paths(p, a.get(), b.get(), flops, j["dgemm_seconds"].get<double>(), "ozaki2_int8_" + std::to_string(N), j,
                     [&](const Pipeline& run, const std::string& name) {
                       sample.write(run.c, name);
                       j["accuracy_" + name] = whole.of(first_elements(run.c, n * n));  // each path measured on its own C
                     });
  }
  if (complex) bench_complex(n, counts, runs, blas, a, b, j);
  return j;
}
// Both of a result's whole-product figures at least the library's (+inf: no element errs; NaN: none compared).
bool as_accurate_as_dgemm(const nlohmann::json& accuracy, const nlohmann::json& dgemm) {
  for (const char* metric : {"maxnorm", "elementwise"})
    if (!(accuracy[metric].get<double>() >= dgemm[metric].get<double>())) return false;
  return true;
}

bool is_complex_run(const std::string& key) { return key.find("_3m_") != std::string::npos || key.find("_gaussian_") != std::string::npos; }

// The fastest emulated run, real against DGEMM or complex against ZGEMM (`blas`: "dgemm" or
// "zgemm"), whose whole product is as accurate as the library's on both metrics.
void print_equal_accuracy(const nlohmann::json& j, const std::string& blas) {
  if (!j.contains("accuracy_" + blas)) return;
  const bool complex = blas == "zgemm";
  double best = 0;
  std::string which = "none of the moduli counts run";
  for (const auto& [key, value] : j.items())
    if (key.rfind("ozaki2_int8_", 0) == 0 && is_complex_run(key) == complex && j.contains("accuracy_" + key) &&
        as_accurate_as_dgemm(j["accuracy_" + key], j["accuracy_" + blas]) && value["tflops"].get<double>() > best)
      best = value["tflops"].get<double>(), which = key;
  const char* name = complex ? "ZGEMM" : "DGEMM";
  if (best == 0) std::printf("        at %s's accuracy (whole product, both metrics): %s reaches it\n", name, which.c_str());
  else std::printf("        at %s's accuracy (whole product, both metrics): %s, %.1f TF/s (%.2fx %s)\n", name, which.c_str(), best,
                   best / j[blas + "_tflops"].get<double>(), name);
}

void print_table(const std::vector<nlohmann::json>& all) {
  std::printf("\n     n  DGEMM TF/s  INT8 TOP/s: cuBLASLt  wgmma  wgmma+reduce  mma.sync   ozaki2-int8 N path: TF/s (x DGEMM)\n");
  for (const auto& j : all) {
    std::printf("%6zu  %10.1f  %20.0f  %5.0f  %12.0f  %8.0f\n", j["n"].get<size_t>(), j["dgemm_tflops"].get<double>(),
                j["int8_cublaslt"]["tops"].get<double>(), j["int8_wgmma"]["tops"].get<double>(), j["int8_wgmma_reduced"]["tops"].get<double>(),
                j["int8_mma_sync"]["tops"].get<double>());
    for (const auto& [key, value] : j.items())
      if (key.rfind("ozaki2_int8_", 0) == 0)
        std::printf("        %-34s %7.1f TF/s (%.2fx cuBLAS)\n", key.c_str(), value["tflops"].get<double>(), value["x_cublas"].get<double>());
    for (const auto& [key, value] : j.items())
      if (key.rfind("accuracy_", 0) == 0)
        std::printf("        %-34s correct bits over the whole product: max norm %s, element-wise %s\n", key.c_str(), value["maxnorm"].dump().c_str(),
                    value["elementwise"].dump().c_str());
    print_equal_accuracy(j, "dgemm");
    print_equal_accuracy(j, "zgemm");
    if (j.contains("zgemm_tflops")) std::printf("        ZGEMM %.1f TF/s\n", j["zgemm_tflops"].get<double>());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_gpu_pipeline SAMPLES_DIR [n ...]\n");
    return 2;
  }
  const std::string samples = argv[1];
  std::vector<size_t> sizes;
  size_t complex_limit = 8192;  // the complex runs at sizes up to OZREF_COMPLEX_MAX (0: none)
  ModuliCounts moduli;
  RunModuli runs;
  try {
    for (int i = 2; i < argc; ++i) sizes.push_back(positive_integer(argv[i], "size argument " + std::to_string(i - 1), "matrix size (n)"));
    if (sizes.empty()) sizes = {4096, 8192, 16384};
    if (const char* limit = std::getenv("OZREF_COMPLEX_MAX"))
      complex_limit = std::string(limit) == "0" ? 0 : positive_integer(limit, "OZREF_COMPLEX_MAX", "size (or 0: no complex runs)");
    moduli = {counts_from("OZREF_MODULI", {14, 16}), counts_from("OZREF_GAUSSIAN_MODULI", {15, 16})};
    runs = resolve_every_run(moduli, sizes, complex_limit);
  } catch (const InputError& e) {
    std::fprintf(stderr, "bench_gpu_pipeline: error: %s\n", e.what());
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "bench_gpu_pipeline: no CUDA device present; nothing was run\n");
    return 77;
  }
  nlohmann::json check;
  if (check_fused_batch(check) != 0) {
    std::fprintf(stderr, "bench_gpu_pipeline: the batched fused GEMM differs from its planes: %s\n", check.dump().c_str());
    return 1;
  }
  std::printf("%s\n", check.dump().c_str());
  cublasHandle_t blas;
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) return 3;
  std::vector<nlohmann::json> all;
  for (size_t n : sizes) {
    all.push_back(bench_size(n, moduli, runs, blas, samples, n <= complex_limit));
    std::printf("%s\n", all.back().dump().c_str());
    std::fflush(stdout);
  }
  print_table(all);
  cublasDestroy(blas);
  return 0;
}
