// The phase clock behind --timings (common/phase_clock.hpp): a phase started inside another
// pauses it, so the phases' seconds never add up to more than the time they cover, and the table
// leaves out the phases that took no time.
#include <chrono>
#include <thread>

#include "common/phase_clock.hpp"
#include "support.hpp"

using namespace ozref;

TEST_CASE("phase clock: nested phases are exclusive and add up to at most the time they cover", "[dist]") {
  using namespace std::chrono_literals;
  const auto before = phase_seconds();
  const auto start = std::chrono::steady_clock::now();
  {
    const PhaseTimer outer(Phase::Read);
    std::this_thread::sleep_for(20ms);
    {
      const PhaseTimer inner(Phase::Write);
      std::this_thread::sleep_for(30ms);
    }
    std::this_thread::sleep_for(10ms);
  }
  const double covered = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto after = phase_seconds();
  const double read = after[size_t(Phase::Read)] - before[size_t(Phase::Read)];
  const double write = after[size_t(Phase::Write)] - before[size_t(Phase::Write)];
  CHECK(read >= 0.030);   // its own 20 + 10 ms (sleeps last at least that long)
  CHECK(write >= 0.030);
  CHECK(read + write <= covered + 1e-6);  // the inner 30 ms counted once, not in both
  for (size_t p = 0; p < kPhaseCount; ++p)
    if (p != size_t(Phase::Read) && p != size_t(Phase::Write)) CHECK(after[p] == before[p]);
}

TEST_CASE("phase clock: the table names the phases that ran, with both columns over ranks", "[dist]") {
  PhaseFigures largest{}, least{};
  largest[size_t(Phase::Analysis)] = 1.5;
  least[size_t(Phase::Analysis)] = 0.25;
  largest[kOutsidePhases] = 0.125;
  largest[kWallTime] = 2;
  const std::string four = phase_table(largest, least, 4);
  CHECK(four ==
        "timings (seconds; largest and least over 4 ranks)\n"
        "  product: analysis                1.500     0.250\n"
        "  outside these phases             0.125     0.000\n"
        "  wall, from main()                2.000     0.000\n");
  CHECK(phase_table(largest, largest, 1) ==
        "timings (seconds)\n"
        "  product: analysis                1.500\n"
        "  outside these phases             0.125\n"
        "  wall, from main()                2.000\n");
}
