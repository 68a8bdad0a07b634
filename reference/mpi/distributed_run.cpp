#include "mpi/distributed_run.hpp"

#include <chrono>
#include <cstdint>
#include <vector>

#include "api/scheme_inputs.hpp"
#include "api/verify_level.hpp"
#include "common/thread_scope.hpp"
#include "exact/exact_gemm.hpp"
#include "io/atomic_file.hpp"
#include "mpi/block_run.hpp"
#include "mpi/merged_metrics.hpp"
#include "mpi/mpi_world.hpp"
#include "mpi/parallel_npy.hpp"
#include "mpi/rank_agreement.hpp"
#include "mpi/rank_part.hpp"
#include "schemes/pipeline/runner.hpp"
#include "common/seconds_since.hpp"

namespace ozref::mpi {

std::string why_not_distributed(const std::string& scheme, bool complex, bool files, bool dump) {
  if (scheme != "ozaki2-int8") return "the scheme " + scheme + " runs in one process; over MPI ranks run takes ozaki2-int8";
  if (complex) return "--complex runs in one process; over MPI ranks run takes real products";
  if (!files) return "generated operands run in one process; over MPI ranks run reads its operands from --a and --b";
  if (dump) return "--dump runs in one process; over MPI ranks run writes no trace";
  return "";
}

SchemeRun run_distributed(const SchemeRunRequest& request, const std::string& a_path, const std::string& b_path,
                          const std::string& out_path) {
  const auto start = std::chrono::steady_clock::now();
  agree_on_inputs({{"--a", a_path}, {"--b", b_path}});
  on_every_rank([&] {
    if (rank() == 0 && !out_path.empty()) check_output_file(out_path, "--out", {a_path, b_path});  // before the work, not after it
  });
  RankPart part;
  on_every_rank([&] { read_rank_part(part, a_path, b_path); });
  const size_t m = part.files.m, n = part.files.n, k = part.files.k;
  SchemeRun run;
  run.source = a_path + ", " + b_path;
  schemes::Scheme block;
  on_every_rank([&] {  // the whole product's scheme refuses what one process's refuses
    run.scheme = schemes::build_scheme(request.scheme, request.options, m, n, k);
    run.verify = verify_level(request.verify, m, n, k);
    schemes::SchemeOptions options = request.options;
    options.block = frame_of(part);
    block = schemes::build_scheme(request.scheme, options, part.block.rows.size(), part.block.cols.size(), k);
  });
  require_finite_operands(part, run.scheme.name);
  schemes::SchemeResult mine;
  on_every_rank([&] {
    mine = schemes::run_scheme(block, real_scheme_inputs(part.ops, a_path, b_path).arrays,
                               {.verify = run.verify, .threads = request.threads, .measure_accuracy = false});
  });
  std::vector<double> times = {mine.pipeline_seconds};
  max_within_group(times, 0);
  MetricSums sums;
  on_every_rank([&] {
    const ExactProduct e = exact_gemm(part.ops.a, part.ops.b, {.threads = request.threads});
    const ThreadScope scope(request.threads);  // measure_sums runs on OpenMP's threads
    sums = measure_sums(mine.c.data, e, place_of(part));
  });
  run.result.accuracy = merged_metrics(sums);
  run.result.stages = merged_reports(mine.stages);
  schemes::settle_exactness(run.scheme, run.result);
  report_reads(part, 0);
  if (!out_path.empty()) write_npy_in_parallel(out_path, m, n, part.block, mine.c.data);
  run.result.pipeline_seconds = times[0];
  times = {seconds_since(start)};
  max_within_group(times, 0);
  run.result.seconds = times[0];
  return run;
}

}  // namespace ozref::mpi
