#include "mpi/distributed_verbs.hpp"

#include "common/phase_clock.hpp"
#include "exact/exact_gemm.hpp"
#include "io/atomic_file.hpp"
#include "mpi/merged_metrics.hpp"
#include "mpi/mpi_world.hpp"
#include "mpi/parallel_npy.hpp"
#include "mpi/rank_agreement.hpp"
#include "mpi/rank_part.hpp"

namespace ozref::mpi {

ProductShape exact_distributed(const std::string& a_path, const std::string& b_path, const std::string& out_path, int threads) {
  agree_on_inputs({{"--a", a_path}, {"--b", b_path}});
  on_every_rank([&] {
    if (rank() == 0) check_output_file(out_path, "--out", {a_path, b_path});  // before the work, not after it
  });
  RankPart part;
  on_every_rank([&] {
    const PhaseTimer timer(Phase::Read);
    read_rank_part(part, a_path, b_path);
  });
  ExactProduct e;
  on_every_rank([&] { e = exact_gemm(part.ops.a, part.ops.b, {.threads = threads}); });
  report_reads(part, 0);
  const PhaseTimer timer(Phase::Write);
  write_npy_in_parallel(out_path, part.files.m, part.files.n, part.block, e.nearest);
  return {part.files.m, part.files.n, part.files.k};
}

CheckOutcome check_distributed(const std::string& a_path, const std::string& b_path, const std::string& c_path, int threads) {
  agree_on_inputs({{"--a", a_path}, {"--b", b_path}, {"--c", c_path}});
  RankPart part;
  NpyArray c_block;
  on_every_rank([&] {
    const PhaseTimer timer(Phase::Read);
    read_rank_part(part, a_path, b_path);
    NpyBlockFile c(c_path);
    require_c_matching(c.header().shape, c.header().dtype, part.files.m, part.files.n, c_path);
    c_block = c.read_block(part.block.rows.begin, part.block.rows.end, part.block.cols.begin, part.block.cols.end);
  });
  MetricSums sums;
  on_every_rank([&] { sums = measure_c(c_block, exact_gemm(part.ops.a, part.ops.b, {.threads = threads}), c_path, threads, place_of(part)); });
  report_reads(part, c_block.data.size());
  return {.metrics = merged_metrics(sums), .m = part.files.m, .n = part.files.n, .k = part.files.k,
          .c_precision = c_precision_of(c_block.dtype), .gate = std::nullopt};
}

}  // namespace ozref::mpi
