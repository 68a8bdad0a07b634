// MMA model GEMM throughput (products per second) against this machine's ceilings, one run:
//   - the VNNI peak: a tight vpdpbusd loop on independent accumulators, all threads;
//   - oneDNN's s8s8s32 GEMM (dnnl_gemm_s8s8s32) on the same operands and threads;
//   - ozref's INT8 model GEMM (sm_90 mma.sync s8.s8, wrapping) at 256^3, 1024^3, 2048^3;
//   - the bit-exact FP8 (sm_90 wgmma, sm_90 mma.sync) and FP4 (sm_100 f8f6f4 e2m1) model GEMMs on
//     integer data (the exact regime) and on random encodings (the vectorised general path), with
//     the instruction chain (no fast path) beside them.
// Usage: bench_mma_gemm [threads] [seed]
#include <immintrin.h>
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "common/rng.hpp"
#include "mma/gemm.hpp"
#include "mma/int8_gemm.hpp"
#include "mma/op_names.hpp"

using namespace ozref;

namespace {

double seconds_of(const std::function<void()>& f, int repeats) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

// The best wall time of `repeats` calls and the process CPU time of that call (all threads): on a
// shared machine the CPU time shows what the kernel does with the cores it got.
struct Timing {
  double wall = 1e30, cpu = 0;
};
Timing timing_of(const std::function<void()>& f, int repeats) {
  auto cpu_now = [] {
    timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
  };
  Timing best;
  for (int r = 0; r < repeats; ++r) {
    const double c0 = cpu_now();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (wall < best.wall) best = {wall, cpu_now() - c0};
  }
  return best;
}

double vnni_peak(int threads) {
  const long iters = 20'000'000;
  double products = 0;
  const double t = seconds_of([&] {
#pragma omp parallel num_threads(threads)
    {
      __m512i acc[12];
      for (auto& x : acc) x = _mm512_set1_epi32(omp_get_thread_num());
      const __m512i a = _mm512_set1_epi32(0x01020304), b = _mm512_set1_epi32(0x05060708);
      for (long i = 0; i < iters; ++i)
        for (auto& x : acc) x = _mm512_dpbusd_epi32(x, a, b);
      int sink = 0;
      alignas(64) int lanes[16];  // not _mm512_reduce_add_epi32: g++ 12's header warns inside it
      for (auto& x : acc) {
        _mm512_store_si512(lanes, x);
        for (int lane : lanes) sink += lane;
      }
      if (sink == 42) std::printf(" ");
    }
  }, 3);
  products = double(iters) * 12 * 64 * threads;  // each vpdpbusd: 16 lanes x 4 products
  return products / t;
}

}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : omp_get_max_threads();
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2026;
  std::printf("bench_mma_gemm: threads %d, seed %llu, VNNI %s\n", threads, (unsigned long long)seed,
              mma::cpu_has_vnni() ? "yes" : "no");
  const double peak = mma::cpu_has_vnni() ? vnni_peak(threads) : 0;
  std::printf("VNNI peak (vpdpbusd loop): %.1f G products/s\n\n", peak / 1e9);
  std::printf("%-44s %6s %12s %14s %10s %10s\n", "model", "n", "seconds", "Gproducts/s", "of peak", "of oneDNN");
  const auto& s8 = mma::instruction(mma::arch("sm_90"), mma::op_name::mma_sync_int8(true, true));
  Rng rng(seed);
  double int8_rate_256 = 0, int8_rate_1024 = 0;
  for (size_t n : {256, 1024, 2048}) {
    std::vector<uint8_t> a(n * n), b(n * n), bt(n * n);
    for (auto& v : a) v = uint8_t(rng.next());
    for (auto& v : b) v = uint8_t(rng.next());
    for (size_t k = 0; k < n; ++k)
      for (size_t j = 0; j < n; ++j) bt[k * n + j] = b[j * n + k];  // oneDNN wants row-major K x N
    std::vector<int32_t> c(n * n);
    const int32_t co = 0;
    omp_set_num_threads(threads);
    const int reps = n >= 2048 ? 2 : 4;
    const double t_dnnl = seconds_of([&] {
      dnnl_gemm_s8s8s32('N', 'N', 'F', n, n, n, 1.0f, reinterpret_cast<const int8_t*>(a.data()), n, 0,
                        reinterpret_cast<const int8_t*>(bt.data()), n, 0, 0.0f, c.data(), n, &co);
    }, reps);
    std::vector<uint32_t> d;
    // gemm_into: D in memory the caller reuses, as a scheme does; plain gemm() (a fresh vector per
    // call) is reported after it.
    d.resize(n * n);
    const Timing model = timing_of([&] { mma::gemm_into(s8, {n, n, n, a, b, {}, {}, {}}, d, {.threads = threads}); }, reps);
    const double t_model = model.wall;
    const double t_alloc = seconds_of([&] { (void)mma::gemm(s8, {n, n, n, a, b, {}, {}, {}}, {.threads = threads}); }, reps);
    size_t same = 0;
    for (size_t i = 0; i < n * n; ++i) same += uint32_t(c[i]) == d[i];
    const double products = double(n) * n * n;
    std::printf("%-44s %6zu %12.4f %14.1f %9.0f%% %9.0f%%   (oneDNN %.4f s; %zu/%zu elements equal; CPU %.4f s, %.1f G per CPU-s)\n",
                "int8 sm_90 mma.sync s8.s8 (gemm_into)", n, t_model, products / t_model / 1e9,
                peak ? 100 * products / t_model / peak : 0, 100 * t_dnnl / t_model, t_dnnl, same, n * n, model.cpu,
                products / model.cpu / 1e9);
    std::printf("%-44s %6zu %12.4f %14.1f %9.0f%% %9.0f%%   (a fresh result vector per call)\n",
                "int8 sm_90 mma.sync s8.s8 (gemm)", n, t_alloc, products / t_alloc / 1e9,
                peak ? 100 * products / t_alloc / peak : 0, 100 * t_dnnl / t_alloc);
    if (n == 256) int8_rate_256 = products / t_model;
    if (n == 1024) int8_rate_1024 = products / t_model;
  }
  struct FpCase {
    const char* arch;
    std::string op;
  };
  const FpCase fp_cases[] = {
      {"sm_90", mma::op_name::wgmma_fp8("e4m3")},
      {"sm_90", mma::op_name::mma_sync_fp8("e4m3")},
      {"sm_100", mma::op_name::tcgen05_f8f6f4("e2m1")},
  };
  // FP models on two kinds of data: integers in [-2, 2] (the regime Ozaki schemes run in; the
  // sums stay below 2^13, so every modelled accumulator is exact and the exact-regime path runs),
  // and random finite encodings (the general, bit-by-bit path).
  for (const auto& fc : fp_cases) {
    const auto& spec = mma::instruction(mma::arch(fc.arch), fc.op);
    const bool fp4 = spec.packing == mma::Packing::PaddedFp4;
    // Encodings of -2..2: e4m3 0xC0 (-2), 0xB8 (-1), 0, 0x38, 0x40; e2m1 (<< 2) 0xC, 0xA, 0, 0x2, 0x4.
    const uint8_t ints_e4m3[5] = {0xC0, 0xB8, 0x00, 0x38, 0x40}, ints_e2m1[5] = {0xC << 2, 0xA << 2, 0, 0x2 << 2, 0x4 << 2};
    for (size_t n : {256, 1024}) {
      std::vector<uint8_t> a(n * n), b(n * n);
      for (auto& v : a) v = (fp4 ? ints_e2m1 : ints_e4m3)[rng.below(5)];
      for (auto& v : b) v = (fp4 ? ints_e2m1 : ints_e4m3)[rng.below(5)];
      const double t = seconds_of([&] { mma::gemm(spec, {n, n, n, a, b, {}, {}, {}}, {.threads = threads}); }, 3);
      const double rate = double(n) * n * n / t;
      const double int8_rate = n == 256 ? int8_rate_256 : int8_rate_1024;
      std::printf("%-44s %6zu %12.4f %14.2f %9.1f%%   integers: %.0f%% of the int8 model at this shape\n",
                  (std::string(fc.arch) + " " + std::string(fc.op).substr(0, 30)).c_str(), n, t, rate / 1e9,
                  peak ? 100 * rate / peak : 0, 100 * rate / int8_rate);
    }
    // Random finite encodings of both signs at 1024^3: the vectorised general path. Every E2M1
    // value is a multiple of 1/2 of at most 6, so with C = 0 FP4 data stay in the exact regime;
    // a random finite C (exponents 2^-7..2^7) takes them out of it. The instruction chain
    // (no fast path) at 128^3 on the same kind of data, for the ratio.
    auto random_finite = [&](size_t count) {
      std::vector<uint8_t> v(count);
      for (auto& x : v) {
        do x = uint8_t(rng.next());
        while (!fp4 && (x & 0x7F) == 0x7F);  // e4m3's NaN
        if (fp4) x &= 0x3C;
      }
      return v;
    };
    auto random_c = [&](size_t count) {
      std::vector<uint32_t> c(count);
      for (auto& x : c) x = uint32_t(rng.next() & 0x807FFFFFu) | uint32_t(120 + rng.below(15)) << 23;
      return c;
    };
    const std::string name = std::string(fc.arch) + " " + std::string(fc.op).substr(0, 30);
    for (bool with_c : {false, true}) {
      const size_t n = 1024;
      const std::vector<uint8_t> a = random_finite(n * n), b = random_finite(n * n);
      const std::vector<uint32_t> c = with_c ? random_c(n * n) : std::vector<uint32_t>{};
      std::vector<uint32_t> d(n * n);
      const Timing t = timing_of([&] { mma::gemm_into(spec, {n, n, n, a, b, {}, {}, c}, d, {.threads = threads}); }, 3);
      const double rate = double(n) * n * n / t.wall;
      std::printf("%-44s %6zu %12.4f %14.2f %9.2f%%   random encodings%s: %.1f%% of the int8 model (%s); CPU %.4f s, %.2f G per CPU-s\n",
                  name.c_str(), n, t.wall, rate / 1e9, peak ? 100 * rate / peak : 0, with_c ? " and C" : "", 100 * rate / int8_rate_1024,
                  fp4 && !with_c ? "exact regime" : "vectorised general path", t.cpu, double(n) * n * n / t.cpu / 1e9);
    }
    const size_t n = 128;
    const std::vector<uint8_t> a = random_finite(n * n), b = random_finite(n * n);
    const std::vector<uint32_t> c = random_c(n * n);
    const double t = seconds_of([&] { mma::gemm(spec, {n, n, n, a, b, {}, {}, c}, {.threads = threads, .allow_fast_path = false}); }, 1);
    std::printf("%-44s %6zu %12.4f %14.3f %9.2f%%   random encodings and C, the instruction chain (no fast path)\n",
                name.c_str(), n, t, double(n) * n * n / t / 1e9, peak ? 100 * double(n) * n * n / t / peak : 0);
  }
  return 0;
}
