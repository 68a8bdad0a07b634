// The whole ozaki2-int8 pipeline against its low-precision GEMMs alone, in one run (issue 4's
// goal: the pipeline with 16 moduli at 1024^3 within 3x its 16 INT8 model GEMMs):
//   - 16 INT8 model GEMMs (the instruction ozaki2-int8 issues on --arch ideal) through
//     mma::gemm_into on random bytes already in the instruction's operand layout;
//   - run_ozaki2 with --verify none, both scaling modes, its pipeline_seconds (every stage, without
//     the accuracy measurement against the exact product) and each stage's seconds: the mode's
//     first run in the process (its buffers fresh from the kernel, as in `ozref run`) and the best
//     of `repeats` more (the allocator reusing memory, as in a fuzzer or a test loop).
// The GEMMs' figure is the best of `repeats` after one warm-up. Freed memory is kept in the heap,
// as `ozref` does (common/retain_memory.hpp); OZREF_MALLOC_DEFAULT=1 measures glibc's default.
// Usage: bench_pipeline [n] [threads] [seed] [repeats]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "common/retain_memory.hpp"
#include "common/rng.hpp"
#include "mma/gemm.hpp"
#include "schemes/common/lowp_gemm.hpp"
#include "schemes/ozaki2/scheme.hpp"

using namespace ozref;

namespace {

constexpr size_t kModuli = 16;

double gemms_seconds(const mma::InstructionSpec& spec, size_t n, int threads, Rng& rng, int repeats) {
  std::vector<uint8_t> a(n * n), b(n * n);
  for (auto& v : a) v = uint8_t(rng.next());
  for (auto& v : b) v = uint8_t(rng.next());
  std::vector<uint32_t> d(n * n);
  const mma::GemmOperands x{n, n, n, a, b, {}, {}, {}};
  double best = 1e30;
  for (int r = 0; r <= repeats; ++r) {  // the first is the warm-up
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t g = 0; g < kModuli; ++g) mma::gemm_into(spec, x, d, {.threads = threads});
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r) best = std::min(best, t);
  }
  return best;
}

struct Runs {
  schemes::SchemeResult first, best;  // the process's first run of the mode, the fastest of the rest
};

Runs runs(const Matrix<double>& a, const Matrix<double>& b, schemes::ScalingMode mode, int threads, int repeats) {
  schemes::Ozaki2Options o;
  o.moduli = kModuli;
  o.mode = mode;
  o.verify = schemes::Verify::None;
  o.threads = threads;
  Runs r;
  r.first = schemes::run_ozaki2(a, b, o, nullptr);
  r.best.pipeline_seconds = 1e30;
  for (int i = 0; i < repeats; ++i) {
    schemes::SchemeResult x = schemes::run_ozaki2(a, b, o, nullptr);
    if (x.pipeline_seconds < r.best.pipeline_seconds) r.best = std::move(x);
  }
  return r;
}

void print(const char* what, const schemes::SchemeResult& r, double gemms) {
  double staged = 0;
  std::printf("  %s:", what);
  for (const auto& s : r.stages) {
    std::printf(" %s %.4f", s.name.c_str(), s.seconds);
    staged += s.seconds;
  }
  std::printf(" (between %.4f)\n    pipeline %.4f s = %.2f x the %zu GEMMs (goal: <= 3)\n", r.pipeline_seconds - staged,
              r.pipeline_seconds, r.pipeline_seconds / gemms, kModuli);
}

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  const int threads = argc > 2 ? std::atoi(argv[2]) : omp_get_max_threads();
  const uint64_t seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 2026;
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 3;
  if (n == 0 || threads <= 0 || repeats <= 0) {
    std::fprintf(stderr, "usage: bench_pipeline [n > 0] [threads > 0] [seed] [repeats > 0]\n");
    return 2;
  }
  const bool retained = !std::getenv("OZREF_MALLOC_DEFAULT") && retain_freed_memory();
  std::printf("bench_pipeline: ozaki2-int8, %zu moduli, n = m = k = %zu, threads %d, seed %llu, best of %d, %s\n", kModuli, n,
              threads, (unsigned long long)seed, repeats, retained ? "freed memory retained" : "glibc's default allocation");
  Rng rng(seed);
  const auto& spec = schemes::scheme_instruction("ideal", schemes::LowpFormat::Int8, "", "ozaki2-int8");
  const double gemms = gemms_seconds(spec, n, threads, rng, repeats);
  std::printf("%zu INT8 model GEMMs (%s): %.4f s\n\n", kModuli, spec.op.c_str(), gemms);
  Matrix<double> a(n, n), b(n, n);
  for (auto& v : a.data) v = rng.normal();
  for (auto& v : b.data) v = rng.normal();
  for (const auto mode : {schemes::ScalingMode::Fast, schemes::ScalingMode::Accurate}) {
    const Runs r = runs(a, b, mode, threads, repeats);
    std::printf("mode %s (%zu low-precision GEMMs), stage seconds\n", mode == schemes::ScalingMode::Fast ? "fast" : "accurate",
                r.best.low_precision_gemms);
    print("first run (fresh memory: page faults)", r.first, gemms);
    print("best of the next runs", r.best, gemms);
    std::printf("\n");
  }
  return 0;
}
