// Exact FP64 GEMM against OpenBLAS DGEMM on the same machine and thread count, n = 256, 512, 1024
// (phi:1 data and randn data), plus the GMP oracle at a small size. Ratios come from one run.
// Usage: bench_exact_gemm [threads] [seed]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <omp.h>

#include "common/blas.hpp"
#include "common/distributions.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/rational_oracle.hpp"

using namespace ozref;

namespace {
template <typename F>
double best_seconds(F&& f, int repeats) {
  double best = 1e30;
  for (int r = 0; r < repeats; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}
}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : omp_get_max_threads();
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2026;
  openblas_set_num_threads(threads);
  omp_set_num_threads(threads);
  std::printf("bench_exact_gemm: threads %d, seed %llu\n", threads, (unsigned long long)seed);
  std::printf("%-10s %6s %12s %12s %8s %8s\n", "data", "n", "dgemm_s", "exact_s", "ratio", "slices");
  for (const char* dist_name : {"phi:1", "randn"}) {
    for (size_t n : {256, 512, 1024}) {
      Rng rng(seed + n);
      const Distribution dist = parse_distribution(dist_name);
      const Matrix<double> a = random_matrix(n, n, dist, rng), b = random_matrix(n, n, dist, rng);
      std::vector<double> c(n * n);
      const int repeats = n >= 1024 ? 3 : 5;
      const double t_blas = best_seconds([&] {
        cblas_dgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, int(n), int(n), int(n), 1.0,
                    a.data.data(), int(n), b.data.data(), int(n), 0.0, c.data(), int(n));
      }, repeats);
      ExactProduct e;
      const double t_exact = best_seconds([&] { e = exact_gemm(a, b, {.threads = threads}); }, repeats);
      std::printf("%-10s %6zu %12.4f %12.4f %8.2f %4dx%-3d\n", dist_name, n, t_blas, t_exact,
                  t_exact / t_blas, e.slices_a, e.slices_b);
    }
  }
  // The slow oracle at a small size, for scale.
  const size_t n = 64;
  Rng rng(seed);
  const Distribution dist = parse_distribution("phi:1");
  const Matrix<double> a = random_matrix(n, n, dist, rng), b = random_matrix(n, n, dist, rng);
  std::vector<double> c(n * n);
  const double t_blas = best_seconds([&] {
    cblas_dgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, int(n), int(n), int(n), 1.0,
                a.data.data(), int(n), b.data.data(), int(n), 0.0, c.data(), int(n));
  }, 5);
  const double t_exact = best_seconds([&] { exact_gemm(a, b, {.threads = threads}); }, 5);
  const double t_direct =
      best_seconds([&] { exact_gemm(a, b, {.threads = threads, .force_direct = true}); }, 3);
  const double t_oracle = best_seconds([&] { oracle::gemm(a, b); }, 1);
  std::printf("\nn = %zu, phi:1: dgemm %.6f s, exact (slices) %.6f s, exact (direct) %.6f s, GMP oracle %.4f s\n",
              n, t_blas, t_exact, t_direct, t_oracle);
  std::printf("ratios to dgemm: exact %.1f, direct %.1f, oracle %.0f\n", t_exact / t_blas,
              t_direct / t_blas, t_oracle / t_blas);
  return 0;
}
