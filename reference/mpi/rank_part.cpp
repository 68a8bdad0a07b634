#include "mpi/rank_part.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>

#include "mpi/mpi_world.hpp"

namespace ozref::mpi {

void read_rank_part(RankPart& part, const std::string& a_path, const std::string& b_path, const Folder* folder) {
  part.files = dist::open_operand_files(a_path, b_path, folder);
  part.grid = dist::process_grid(ranks(), part.files.m, part.files.n);
  part.block = dist::block_of(part.files.m, part.files.n, part.grid, rank());
  part.ops = dist::read_block_operands(part.files, part.block);
}

void report_reads(const RankPart& part, uint64_t c_bytes) {
  const char* wanted = std::getenv("OZREF_IO_REPORT");
  if (!wanted || std::strcmp(wanted, "1") != 0) return;
  std::ostringstream line;  // one write, so that the ranks' lines do not interleave
  line << "ozref: rank " << rank() << " of " << ranks() << ": block rows [" << part.block.rows.begin << ", " << part.block.rows.end
       << ") x columns [" << part.block.cols.begin << ", " << part.block.cols.end << "), read " << part.files.a->bytes_read()
       << " bytes of A, " << part.files.b->bytes_read() << " of B, " << c_bytes << " of C\n";
  std::cerr << line.str() << std::flush;
}

}  // namespace ozref::mpi
