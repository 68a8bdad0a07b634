#include "cli/timings_report.hpp"

#include <iostream>

#include "common/phase_clock.hpp"
#if OZREF_WITH_MPI
#include "mpi/mpi_world.hpp"
#endif

namespace ozref::cli {

void print_timings() {
  const PhaseFigures mine = this_process_figures();
  PhaseFigures largest = mine, least = mine;
  int ranks = 1;
#if OZREF_WITH_MPI
  if (mpi::active()) {
    mpi::extremes_on_root(mine.data(), mine.size(), largest.data(), least.data());
    ranks = mpi::ranks();
    if (mpi::rank() != 0) return;
  }
#endif
  std::cerr << phase_table(largest, least, ranks) << std::flush;
}

}  // namespace ozref::cli
