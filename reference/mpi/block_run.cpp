#include "mpi/block_run.hpp"

#include <cstdint>

#include "dist/block_reports.hpp"
#include "mpi/mpi_world.hpp"
#include "schemes/common/input_checks.hpp"

namespace ozref::mpi {

schemes::BlockFrame frame_of(const RankPart& part) {
  const int grid_row = rank() / part.grid.cols, grid_col = rank() % part.grid.cols;
  schemes::BlockFrame f{.row0 = part.block.rows.begin, .col0 = part.block.cols.begin, .m = part.files.m, .n = part.files.n,
                        .checks_a = grid_col == 0, .checks_b = grid_row == 0, .whole_line_maxima = {}};
  f.whole_line_maxima = [grid_row, grid_col](std::vector<double>& row_max, std::vector<double>& col_max) {
    max_within_group(row_max, grid_row);
    max_within_group(col_max, grid_col);
  };
  return f;
}

void require_finite_operands(const RankPart& part, const std::string& scheme) {
  const MatrixView<double> a = part.ops.a, b = part.ops.b;
  const size_t k = part.files.k;
  uint64_t at = UINT64_MAX;
  std::string message;
  if (const size_t v = schemes::first_non_finite(a); v < a.size()) {
    const size_t i = part.block.rows.begin + v / k;
    at = uint64_t(i) * k + v % k;
    message = schemes::non_finite_message(scheme, "A", i, v % k);
  } else if (const size_t w = schemes::first_non_finite(b); w < b.size()) {
    const size_t kk = w / b.cols, j = part.block.cols.begin + w % b.cols;
    at = (uint64_t(1) << 62) + uint64_t(kk) * part.files.n + j;  // after every element of A
    message = schemes::non_finite_message(scheme, "B", kk, j);
  }
  stop_at_first_fault(at, message);
}

std::vector<schemes::StageReport> merged_reports(const std::vector<schemes::StageReport>& mine) {
  const std::vector<std::string> all = gather_strings_on_root(dist::block_reports_json(mine).dump());
  std::string merged;
  if (rank() == 0) {
    std::vector<std::vector<schemes::StageReport>> ranks;
    for (const std::string& text : all) ranks.push_back(dist::block_reports_from_json(nlohmann::json::parse(text)));
    merged = dist::block_reports_json(dist::merge_block_reports(ranks)).dump();
  }
  return dist::block_reports_from_json(nlohmann::json::parse(broadcast_from_root(merged)));
}


}  // namespace ozref::mpi
