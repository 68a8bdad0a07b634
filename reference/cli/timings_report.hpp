// --timings (exact, check): where the run's time went, phase by phase (common/phase_clock.hpp),
// on standard error once the verb's work is done, so that a report on standard output stays as
// it is. Under MPI it is collective: the largest and least over the ranks, printed by rank 0.
#pragma once

namespace ozref::cli {

void print_timings();

}  // namespace ozref::cli
