#include "mpi/mpi_world.hpp"

#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <stdexcept>

#include "common/error.hpp"

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
  std::vector<char> all(rank() == 0 ? size * size_t(ranks()) : 0);
  require(MPI_Gather(bytes, int(size), MPI_BYTE, all.data(), int(size), MPI_BYTE, 0, MPI_COMM_WORLD), "MPI_Gather");
  return all;
}

std::string broadcast_from_root(const std::string& text) {
  unsigned long long length = text.size();
  require(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD), "MPI_Bcast");
  std::string out = rank() == 0 ? text : std::string(size_t(length), '\0');
  require(MPI_Bcast(out.data(), int(length), MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return out;
}

}  // namespace ozref::mpi
