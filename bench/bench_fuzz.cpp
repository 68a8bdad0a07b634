// ozref fuzz's harness cost: cases per second on the default shapes (up to 16x16x64) for in-process
// subjects, and the shares of the case generator, the subject and the oracle (the exact product and
// measure()). One thread, as `ozref fuzz` runs by default.
// Usage: bench_fuzz [seconds per subject] [seed]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "common/thread_scope.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/metrics.hpp"
#include "fuzz/generators.hpp"
#include "fuzz/subjects.hpp"

using namespace ozref;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

void bench(const std::string& name, schemes::SchemeOptions options, double budget, uint64_t seed) {
  const auto subject = fuzz::make_subject({.name = name, .options = options, .threads = 1});
  double generating = 0, running = 0, oracle = 0;
  uint64_t cases = 0, refused = 0;
  const Clock::time_point start = Clock::now();
  for (; since(start) < budget; ++cases) {
    Clock::time_point t = Clock::now();
    const fuzz::FuzzCase c = fuzz::generate_case(seed, cases, fuzz::generator_names(), {});
    generating += since(t);
    t = Clock::now();
    const fuzz::SubjectOutcome out = subject->run(c.a, c.b);
    running += since(t);
    if (out.kind != fuzz::SubjectOutcome::Ok) {
      ++refused;
      continue;
    }
    t = Clock::now();
    const ThreadScope one_thread(1);  // as check_case() (fuzz/properties.cpp)
    const AccuracyMetrics m = measure(out.c.data, exact_gemm(c.a, c.b, {.threads = 1}));
    oracle += since(t);
    if (m.elements != out.c.size()) std::abort();
  }
  const double total = generating + running + oracle;
  std::printf("%-40s %7llu cases (%llu refused) %8.0f cases/s   generator %4.1f %%  subject %4.1f %%  oracle %4.1f %% (%.0f us a case)\n",
              subject->description().c_str(), static_cast<unsigned long long>(cases), static_cast<unsigned long long>(refused), cases / total,
              100 * generating / total, 100 * running / total, 100 * oracle / total, 1e6 * oracle / double(cases - refused));
}

}  // namespace

int main(int argc, char** argv) {
  const double budget = argc > 1 ? std::atof(argv[1]) : 5;
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 1;
  std::printf("bench_fuzz: %.1f s per subject (seed %llu), shapes up to 16x16x64, every generator, 1 thread\n", budget,
              static_cast<unsigned long long>(seed));
  schemes::SchemeOptions fast;
  fast.mode = "fast";
  bench("exact", {}, budget, seed);
  bench("gemmul8@2.0.14", fast, budget, seed);
  bench("ozaki2-int8", {}, budget, seed);
  schemes::SchemeOptions bits79;
  bits79.mantissa_bits = "79";
  bench("cublas-fixedpoint@13.1", bits79, budget, seed);
  return 0;
}
