// The ozref command (cli/command_line.hpp does the work).
#include <omp.h>

#include <iostream>

#include "cli/command_line.hpp"
#include "common/memory_budget.hpp"
#include "common/openmp_environment.hpp"
#include "common/phase_clock.hpp"
#include "common/retain_memory.hpp"
#include "io/temp_file_cleanup.hpp"
#if OZREF_WITH_MPI
#include "mpi/mpi_world.hpp"
#endif

int main(int argc, char** argv) {
  ozref::process_clock_start();  // --timings' wall time
  ozref::retain_freed_memory();
  ozref::install_temp_file_cleanup();
  // before MPI starts: a rank that stops here stops the launch (mpirun ends the others)
  if (const std::string bad = ozref::openmp_environment_problem(ozref::memory_budget(), omp_get_max_threads()); !bad.empty()) {
    std::cerr << "ozref: error: " << bad << "\n";
    return 2;
  }
#if OZREF_WITH_MPI
  const ozref::mpi::Session mpi(argc, argv);  // only under a launcher (mpirun, srun)
  if (ozref::mpi::rank() != 0) {  // one report and one error message: rank 0's
    std::ostream discarded(nullptr);
    return ozref::cli::run_command_line(argc, argv, discarded, discarded);
  }
#endif
  return ozref::cli::run_command_line(argc, argv, std::cout, std::cerr);
}
