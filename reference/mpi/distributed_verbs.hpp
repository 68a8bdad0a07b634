// `ozref exact` and `ozref check` over every rank of MPI_COMM_WORLD (collective): C split into
// 2-D blocks over a process grid (dist/process_grid.hpp), each rank reading only its rows of A and
// columns of B (and its block of C) from the files, computing its block's exact product with
// `threads` OpenMP threads, and C written by every rank into one file (mpi/parallel_npy.hpp). The
// results are those of one process bit for bit: each element's exact product does not depend on
// the others, and the accuracy figures are counts, maxima and minima merged exactly. Bad input on
// any rank stops every rank with that rank's message (mpi::on_every_rank).
#pragma once
#include <string>

#include "api/check_product.hpp"

namespace ozref::mpi {

struct ProductShape {
  size_t m = 0, n = 0, k = 0;
};

ProductShape exact_distributed(const std::string& a_path, const std::string& b_path, const std::string& out_path, int threads);

// The outcome on rank 0; on the other ranks, that of their own block.
CheckOutcome check_distributed(const std::string& a_path, const std::string& b_path, const std::string& c_path, int threads);

}  // namespace ozref::mpi
