// An m x n FP64 matrix whose blocks the ranks hold, written as one .npy file that appears whole
// or not at all (as write_npy writes one process's file): rank 0 checks the target and creates
// the temporary file beside it (io/atomic_file.hpp's rules) holding the header and the file's full
// length, every rank writes its block's rows into it through MPI-IO, and rank 0 renames it over
// the target once every rank's writes succeeded; on any failure it is removed. Collective.
#pragma once
#include <span>
#include <string>

#include "dist/process_grid.hpp"

namespace ozref::mpi {

// `block_data`: this rank's block in C order.
void write_npy_in_parallel(const std::string& path, size_t m, size_t n, const dist::Block& block, std::span<const double> block_data);

}  // namespace ozref::mpi
