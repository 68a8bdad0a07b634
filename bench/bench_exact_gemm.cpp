// Exact FP64 GEMM against OpenBLAS DGEMM on the same machine and thread count, n = 256, 512, 1024
// (phi:1 data and randn data), plus the GMP oracle at a small size. Ratios come from one run.
// Freed memory is kept in the heap, as `ozref` does (common/retain_memory.hpp);
// OZREF_MALLOC_DEFAULT=1 measures glibc's default. Besides wall seconds it prints the process's
// CPU seconds (all threads), which tell the work apart from waiting on a loaded machine.
// Usage: bench_exact_gemm [threads] [seed]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <omp.h>

#include "common/blas.hpp"
#include "common/retain_memory.hpp"
#include "common/distributions.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/rational_oracle.hpp"

using namespace ozref;

namespace {
double cpu_seconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

struct Seconds {
  double wall = 1e30, cpu = 1e30;  // each the best of the repeats
};

template <typename F>
Seconds best_seconds(F&& f, int repeats) {
  Seconds best;
  for (int r = 0; r < repeats; ++r) {
    const double c0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    best.cpu = std::min(best.cpu, cpu_seconds() - c0);
    best.wall = std::min(best.wall, std::chrono::duration<double>(t1 - t0).count());
  }
  return best;
}
}  // namespace

int main(int argc, char** argv) {
  const int threads = argc > 1 ? std::atoi(argv[1]) : omp_get_max_threads();
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 2026;
  const bool retained = !std::getenv("OZREF_MALLOC_DEFAULT") && retain_freed_memory();
  openblas_set_num_threads(threads);
  omp_set_num_threads(threads);
  std::printf("bench_exact_gemm: threads %d, seed %llu, freed memory %s\n", threads,
              (unsigned long long)seed, retained ? "retained" : "returned (glibc default)");
  std::printf("%-8s %5s %9s %9s %7s %9s %9s %7s %6s\n", "data", "n", "dgemm_s", "exact_s", "ratio",
              "dgemm_cpu", "exact_cpu", "ratio", "gemms");
  for (const char* dist_name : {"phi:1", "randn"}) {
    for (size_t n : {256, 512, 1024}) {
      Rng rng(seed + n);
      const Distribution dist = parse_distribution(dist_name);
      const Matrix<double> a = random_matrix(n, n, dist, rng), b = random_matrix(n, n, dist, rng);
      std::vector<double> c(n * n);
      const int repeats = n >= 1024 ? 3 : 5;
      const Seconds t_blas = best_seconds([&] {
        cblas_dgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, int(n), int(n), int(n), 1.0,
                    a.data.data(), int(n), b.data.data(), int(n), 0.0, c.data(), int(n));
      }, repeats);
      ExactProduct e;
      const Seconds t_exact = best_seconds([&] { e = exact_gemm(a, b, {.threads = threads}); }, repeats);
      std::printf("%-8s %5zu %9.4f %9.4f %7.2f %9.4f %9.4f %7.2f %6d\n", dist_name, n, t_blas.wall,
                  t_exact.wall, t_exact.wall / t_blas.wall, t_blas.cpu, t_exact.cpu, t_exact.cpu / t_blas.cpu,
                  e.moduli);
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
  }, 5).wall;
  const double t_exact = best_seconds([&] { exact_gemm(a, b, {.threads = threads}); }, 5).wall;
  const double t_direct =
      best_seconds([&] { exact_gemm(a, b, {.threads = threads, .method = ExactMethod::Direct}); }, 3).wall;
  const double t_oracle = best_seconds([&] { oracle::gemm(a, b); }, 1).wall;
  std::printf("\nn = %zu, phi:1: dgemm %.6f s, exact (modular) %.6f s, exact (direct) %.6f s, GMP oracle %.4f s\n",
              n, t_blas, t_exact, t_direct, t_oracle);
  std::printf("ratios to dgemm: exact %.1f, direct %.1f, oracle %.0f\n", t_exact / t_blas,
              t_direct / t_blas, t_oracle / t_blas);
  return 0;
}
