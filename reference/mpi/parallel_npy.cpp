#include "mpi/parallel_npy.hpp"

#include <mpi.h>

#include <exception>
#include <optional>

#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "mpi/mpi_world.hpp"

namespace ozref::mpi {
namespace {

void require_io(int code, const std::string& path, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw InputError(path + ": " + what + ": " + std::string(text, size_t(length)));
}

std::string npy_header(size_t m, size_t n) {
  NpyArray shape_only{.dtype = DType::F8, .shape = {m, n}, .data = {}};
  return serialize_npy(shape_only);  // no data: the header alone
}

// Each row of the block is one contiguous run of the file; a short write (MPI-IO may report one
// as success) is a failure too.
void write_block(MPI_File file, size_t data_start, size_t n, const dist::Block& block, std::span<const double> data,
                 const std::string& path) {
  const size_t cols = block.cols.size();
  for (size_t r = 0; r < block.rows.size() && cols; ++r) {
    const MPI_Offset at = MPI_Offset(data_start + ((block.rows.begin + r) * n + block.cols.begin) * sizeof(double));
    MPI_Status status;
    require_io(MPI_File_write_at(file, at, data.data() + r * cols, int(cols), MPI_DOUBLE, &status), path, "cannot write its rows");
    int written = 0;
    MPI_Get_count(&status, MPI_DOUBLE, &written);
    if (written != int(cols))
      throw InputError(path + ": rank " + std::to_string(rank()) + " wrote " + std::to_string(written) + " of the " + std::to_string(cols) +
                       " elements of row " + std::to_string(block.rows.begin + r) + " (is the file system full?)");
  }
}

}  // namespace

void write_npy_in_parallel(const std::string& path, size_t m, size_t n, const dist::Block& block, std::span<const double> block_data) {
  const std::string header = npy_header(m, n);
  std::optional<AtomicFile> file;  // rank 0's; removed on the way out unless committed
  on_every_rank([&] {
    if (rank() != 0) return;
    file.emplace(path);
    file->write(header);
    file->reserve(header.size() + m * n * sizeof(double));
  });
  const std::string temp = broadcast_from_root(file ? file->temp_path() : std::string());
  MPI_File handle = MPI_FILE_NULL;
  on_every_rank([&] {
    require_io(MPI_File_open(MPI_COMM_WORLD, temp.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &handle), path, "cannot open the temporary file");
  });
  std::exception_ptr failed;
  try {
    on_every_rank([&] { write_block(handle, header.size(), n, block, block_data, path); });
    on_every_rank([&] { require_io(MPI_File_sync(handle), path, "cannot flush the file"); });
  } catch (...) {
    failed = std::current_exception();
  }
  const int closed = MPI_File_close(&handle);  // collective: every rank closes, whatever happened
  if (failed) std::rethrow_exception(failed);
  on_every_rank([&] { require_io(closed, path, "cannot close the file"); });
  on_every_rank([&] {  // only once every rank's rows are in the file
    if (file) file->commit();
  });
}

}  // namespace ozref::mpi
