#include "mpi/mpi_world.hpp"

#include <mpi.h>

#include <climits>
#include <cstring>
#include <cstdlib>
#include <stdexcept>

#include "common/error.hpp"
#include "common/phase_clock.hpp"

namespace ozref::mpi {
namespace {

void require(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string(call) + " failed: " + std::string(text, size_t(length)));
}

}  // namespace

bool launched_by_mpi_launcher() {
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(variable)) return true;
  return false;
}

Session::Session(int& argc, char**& argv) {
  if (!launched_by_mpi_launcher()) return;
  int provided = 0;  // only the main thread calls MPI; OpenMP threads compute between the calls
  const PhaseTimer timer(Phase::MpiStart);
  require(MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  started_ = true;
}

Session::~Session() {
  if (started_) MPI_Finalize();
}

bool active() {
  int started = 0, finished = 0;
  MPI_Initialized(&started);
  MPI_Finalized(&finished);
  return started && !finished;
}

int rank() {
  int r = 0;
  if (active()) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int ranks() {
  int n = 1;
  if (active()) MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

void on_every_rank(const std::function<void()>& step) {
  std::string message;
  bool failed = false;
  try {
    step();
  } catch (...) {
    message = failure_message(std::current_exception());
    failed = true;
  }
  const PhaseTimer timer(Phase::Agreement);
  const int mine = failed ? rank() : INT_MAX;
  int first = INT_MAX;
  require(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first == INT_MAX) return;
  unsigned long long length = message.size();
  require(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, first, MPI_COMM_WORLD), "MPI_Bcast");
  message.resize(size_t(length));
  require(MPI_Bcast(message.data(), int(length), MPI_CHAR, first, MPI_COMM_WORLD), "MPI_Bcast");
  throw InputError(message);
}

std::vector<char> gather_on_root(const void* bytes, size_t size) {
  const PhaseTimer timer(Phase::Agreement);
  std::vector<char> all(rank() == 0 ? size * size_t(ranks()) : 0);
  require(MPI_Gather(bytes, int(size), MPI_BYTE, all.data(), int(size), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Gather");
  return all;
}

std::vector<char> gather_on_every_rank(const void* bytes, size_t size) {
  const PhaseTimer timer(Phase::Agreement);
  std::vector<char> all(size * size_t(ranks()));
  require(MPI_Allgather(bytes, int(size), MPI_BYTE, all.data(), int(size), MPI_BYTE, MPI_COMM_WORLD), "MPI_Allgather");
  return all;
}

std::string broadcast_from_root(const std::string& text) {
  const PhaseTimer timer(Phase::Agreement);
  unsigned long long length = text.size();
  require(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string out = rank() == 0 ? text : std::string(size_t(length), '\0');
  require(MPI_Bcast(out.data(), int(length), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return out;
}

std::vector<std::string> gather_strings_on_root(const std::string& text) {
  const PhaseTimer timer(Phase::Agreement);
  const unsigned long long length = text.size();
  std::vector<char> lengths = gather_on_root(&length, sizeof length);
  std::vector<int> counts, offsets;
  int total = 0;
  for (size_t r = 0; r < lengths.size() / sizeof length; ++r) {
    unsigned long long l = 0;
    std::memcpy(&l, lengths.data() + r * sizeof l, sizeof l);
    counts.push_back(int(l));
    offsets.push_back(total);
    total += int(l);
  }
  std::vector<char> all(size_t(total) + 1);
  require(MPI_Gatherv(text.data(), int(text.size()), MPI_CHAR, all.data(), counts.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
  std::vector<std::string> out;
  for (size_t r = 0; r < counts.size(); ++r) out.emplace_back(all.data() + offsets[r], size_t(counts[r]));
  return out;
}

void max_within_group(std::vector<double>& values, int group) {
  const PhaseTimer timer(Phase::Agreement);
  MPI_Comm comm;
  require(MPI_Comm_split(MPI_COMM_WORLD, group, rank(), &comm), "MPI_Comm_split");
  const int code = MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, comm);
  MPI_Comm_free(&comm);
  require(code, "MPI_Allreduce");
}

void stop_at_first_fault(uint64_t at, const std::string& message) {
  unsigned long long first = 0;
  const unsigned long long mine = at;
  const PhaseTimer timer(Phase::Agreement);
  require(MPI_Allreduce(&mine, &first, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD), "MPI_Allreduce");
  if (first == UINT64_MAX) return;
  on_every_rank([&] {  // the lowest rank among those at the first fault gives its words
    if (mine == first) throw InputError(message);
  });
}

void extremes_on_root(const double* values, size_t count, double* largest, double* least) {
  require(MPI_Reduce(values, largest, int(count), MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD), "MPI_Reduce");
  require(MPI_Reduce(values, least, int(count), MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD), "MPI_Reduce");
}

}  // namespace ozref::mpi
