#include "mpi/distributed_verbs.hpp"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <type_traits>

#include "dist/block_operands.hpp"
#include "exact/exact_gemm.hpp"
#include "io/atomic_file.hpp"
#include "mpi/mpi_world.hpp"
#include "mpi/parallel_npy.hpp"

namespace ozref::mpi {
namespace {

static_assert(std::is_trivially_copyable_v<MetricSums>, "ranks exchange MetricSums as bytes");

// This rank's share of A, B and C: its block and the operands it needs.
struct RankPart {
  dist::OperandFiles files;
  dist::Block block;
  Operands ops;
};

void open_and_read(RankPart& part, const std::string& a_path, const std::string& b_path) {
  part.files = dist::open_operand_files(a_path, b_path);
  const dist::ProcessGrid grid = dist::process_grid(ranks(), part.files.m, part.files.n);
  part.block = dist::block_of(part.files.m, part.files.n, grid, rank());
  part.ops = dist::read_block_operands(part.files, part.block);
}

// OZREF_IO_REPORT=1: each rank's read volume on standard error (docs/scale.md checks it against
// the 2-D bound); the reports themselves are unchanged.
void report_reads(const RankPart& part, uint64_t c_bytes) {
  const char* wanted = std::getenv("OZREF_IO_REPORT");
  if (!wanted || std::strcmp(wanted, "1") != 0) return;
  std::ostringstream line;  // one write, so that the ranks' lines do not interleave
  line << "ozref: rank " << rank() << " of " << ranks() << ": block rows [" << part.block.rows.begin << ", " << part.block.rows.end
       << ") x columns [" << part.block.cols.begin << ", " << part.block.cols.end << "), read " << part.files.a->bytes_read()
       << " bytes of A, " << part.files.b->bytes_read() << " of B, " << c_bytes << " of C\n";
  std::cerr << line.str() << std::flush;
}

}  // namespace

ProductShape exact_distributed(const std::string& a_path, const std::string& b_path, const std::string& out_path, int threads) {
  on_every_rank([&] {
    if (rank() == 0) check_output_file(out_path, "--out");  // before the work, not after it
  });
  RankPart part;
  on_every_rank([&] { open_and_read(part, a_path, b_path); });
  ExactProduct e;
  on_every_rank([&] { e = exact_gemm(part.ops.a, part.ops.b, {.threads = threads}); });
  report_reads(part, 0);
  write_npy_in_parallel(out_path, part.files.m, part.files.n, part.block, e.nearest);
  return {part.files.m, part.files.n, part.files.k};
}

CheckOutcome check_distributed(const std::string& a_path, const std::string& b_path, const std::string& c_path, int threads) {
  RankPart part;
  NpyArray c_block;
  on_every_rank([&] {
    open_and_read(part, a_path, b_path);
    NpyBlockFile c(c_path);
    require_c_matching(c.header().shape, c.header().dtype, part.files.m, part.files.n, c_path);
    c_block = c.read_block(part.block.rows.begin, part.block.rows.end, part.block.cols.begin, part.block.cols.end);
  });
  MetricSums sums;
  on_every_rank([&] { sums = measure_c(c_block, exact_gemm(part.ops.a, part.ops.b, {.threads = threads}), c_path); });
  report_reads(part, c_block.data.size());
  const std::vector<char> all = gather_on_root(&sums, sizeof sums);
  for (size_t r = 1; r < all.size() / sizeof sums; ++r) {
    MetricSums other;
    std::memcpy(&other, all.data() + r * sizeof sums, sizeof sums);
    merge_sums(sums, other);
  }
  return {.metrics = finish_metrics(sums), .m = part.files.m, .n = part.files.n, .k = part.files.k,
          .c_precision = c_precision_of(c_block.dtype)};
}

}  // namespace ozref::mpi
