// Where a heavy verb's wall time goes, phase by phase (`ozref exact --timings`, `check --timings`;
// docs/scale.md): each phase's time is exclusive (a phase started inside another pauses it), so the
// phases of a run add up to the time they cover. Kept per process in atomics, since exact_gemm may
// run on several threads of a caller at once; each thread keeps its own nesting.
#pragma once
#include <array>
#include <chrono>
#include <string>

namespace ozref {

enum class Phase : int {
  MpiStart,         // MPI_Init
  Read,             // reading and checking the input files
  ProductSetup,     // exact_gemm outside the phases below (its output's allocation)
  Analysis,         // the exponent range of every row of A and column of B
  Scaling,          // the operands as scaled integers (and B transposed)
  OperandResidues,  // their residues (int8 bytes or DGEMM residues) modulo every modulus
  ResidueGemms,     // the residue GEMMs and the joins of their results
  Rebuild,          // Garner's algorithm and the rounding of every element
  DirectPath,       // the direct path's wide accumulators, where it runs instead
  DeviceCopies,     // --device gpu: the operands to the GPU, the rounded product back
  Specials,         // NaN and infinities
  Measure,          // check: C against the exact product
  Agreement,        // MPI: agreeing on errors, gathering check's figures, broadcasts
  Write,            // writing C
  kCount
};
constexpr size_t kPhaseCount = size_t(Phase::kCount);

const char* phase_name(Phase phase);

// Seconds spent in each phase by this process so far.
std::array<double, kPhaseCount> phase_seconds();

// Times its own scope as `phase`, pausing the phase that was running on this thread.
class PhaseTimer {
 public:
  explicit PhaseTimer(Phase phase);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;

 private:
  int outer_;
};

// A process's figures: each phase's seconds, then the time outside every phase and the wall time
// since main() began (process_clock_start()), so that ranks can reduce them element by element.
constexpr size_t kOutsidePhases = kPhaseCount, kWallTime = kPhaseCount + 1;
using PhaseFigures = std::array<double, kPhaseCount + 2>;
PhaseFigures this_process_figures();

// Called first thing in main(): where the wall time starts.
void process_clock_start();

// The readable table that --timings prints: each figure's largest and least over `ranks`
// processes (one column for one process), phases that took no time on any rank left out.
std::string phase_table(const PhaseFigures& largest, const PhaseFigures& least, int ranks);

}  // namespace ozref
