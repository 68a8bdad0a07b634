#include "common/phase_clock.hpp"

#include <atomic>
#include <cstdio>
#include <numeric>

namespace ozref {
namespace {

using Clock = std::chrono::steady_clock;

std::array<std::atomic<int64_t>, kPhaseCount> g_nanoseconds{};
Clock::time_point g_process_start = Clock::now();  // until main() says when it began
thread_local int t_phase = -1;                      // the phase running on this thread, -1: none
thread_local Clock::time_point t_since;             // since when it has run

// Charges the time since t_since to the running phase and restarts the count.
void charge() {
  const Clock::time_point now = Clock::now();
  if (t_phase >= 0)
    g_nanoseconds[size_t(t_phase)].fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(now - t_since).count(),
                                             std::memory_order_relaxed);
  t_since = now;
}

}  // namespace

const char* phase_name(Phase phase) {
  static constexpr const char* names[kPhaseCount] = {
      "MPI start", "read inputs", "product: setup", "product: analysis", "product: scaling", "product: operand residues",
      "product: residue GEMMs", "product: rebuild, round", "product: direct path", "product: GPU copies", "product: NaN, Inf", "measure C",
      "MPI agreements, gathers", "write C"};
  return names[size_t(phase)];
}

std::array<double, kPhaseCount> phase_seconds() {
  std::array<double, kPhaseCount> s{};
  for (size_t p = 0; p < kPhaseCount; ++p) s[p] = double(g_nanoseconds[p].load(std::memory_order_relaxed)) * 1e-9;
  return s;
}

PhaseTimer::PhaseTimer(Phase phase) : outer_(t_phase) {
  charge();
  t_phase = int(phase);
}

PhaseTimer::~PhaseTimer() {
  charge();
  t_phase = outer_;
}

void process_clock_start() { g_process_start = Clock::now(); }

PhaseFigures this_process_figures() {
  PhaseFigures f{};
  const std::array<double, kPhaseCount> s = phase_seconds();
  std::copy(s.begin(), s.end(), f.begin());
  f[kWallTime] = std::chrono::duration<double>(Clock::now() - g_process_start).count();
  f[kOutsidePhases] = f[kWallTime] - std::accumulate(s.begin(), s.end(), 0.0);
  return f;
}

std::string phase_table(const PhaseFigures& largest, const PhaseFigures& least, int ranks) {
  std::string out = ranks > 1 ? "timings (seconds; largest and least over " + std::to_string(ranks) + " ranks)\n"
                              : std::string("timings (seconds)\n");
  char line[160];
  for (size_t p = 0; p < largest.size(); ++p) {
    if (p < kPhaseCount && largest[p] == 0) continue;
    const char* name = p < kPhaseCount ? phase_name(Phase(p)) : p == kOutsidePhases ? "outside these phases" : "wall, from main()";
    if (ranks > 1) std::snprintf(line, sizeof line, "  %-28s %9.3f %9.3f\n", name, largest[p], least[p]);
    else std::snprintf(line, sizeof line, "  %-28s %9.3f\n", name, largest[p]);
    out += line;
  }
  return out;
}

}  // namespace ozref
