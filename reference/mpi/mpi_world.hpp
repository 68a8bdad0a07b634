// MPI for the distributed verbs (docs/scale.md). The ozref executable starts MPI only when a
// launcher (mpirun, srun) started it, so that a plain `ozref exact` works as it always did, with
// no MPI runtime in the way; under a launcher `exact` and `check` run distributed for any number
// of ranks, 1 included. Built only when CMake finds an MPI (OZREF_WITH_MPI).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ozref::mpi {

// True when the environment holds a launcher's rank variable (OpenMPI's, PMIx's or Slurm's PMI).
bool launched_by_mpi_launcher();

// MPI_Init on construction when launched_by_mpi_launcher(), MPI_Finalize on destruction.
class Session {
 public:
  Session(int& argc, char**& argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

 private:
  bool started_ = false;
};

bool active();  // MPI was started (and not finalised)
int rank();     // in MPI_COMM_WORLD (0 when not active)
int ranks();    // its size (1 when not active)

// Runs `step` on this rank, then agrees with every other rank (collective): when it threw on any
// rank, every rank throws an InputError with the message of the lowest rank it threw on, so that
// every rank stops at the same point with the same words, and none waits for the others forever.
void on_every_rank(const std::function<void()>& step);

// The bytes each rank gives, concatenated in rank order on rank 0 (elsewhere: empty). Every rank
// gives the same number of bytes.
std::vector<char> gather_on_root(const void* bytes, size_t size);

// The same, concatenated in rank order on every rank.
std::vector<char> gather_on_every_rank(const void* bytes, size_t size);

// Rank 0's string, on every rank.
std::string broadcast_from_root(const std::string& text);

// Each rank's string, in rank order on rank 0 (elsewhere: empty); the strings may differ in length.
std::vector<std::string> gather_strings_on_root(const std::string& text);

// Element-wise maxima of `values` over the ranks that give the same `group` (collective over every
// rank; each group's ranks give equally long vectors).
void max_within_group(std::vector<double>& values, int group);

// Agrees on the faults the ranks found (collective): when any rank found one (`at` below
// UINT64_MAX), every rank throws an InputError with the message of the fault at the least `at`
// (ties: the lowest rank's), the one a single process meets first.
void stop_at_first_fault(uint64_t at, const std::string& message);

// Element-wise maxima and minima of every rank's `count` values, into `largest` and `least` on
// rank 0 (collective; elsewhere they are left as they were).
void extremes_on_root(const double* values, size_t count, double* largest, double* least);

}  // namespace ozref::mpi
