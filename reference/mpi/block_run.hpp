// What the distributed scheme runs (run, verify-trace; docs/scale.md) share: each rank runs the
// scheme on its block of C with the stage checks keyed by their place in the whole product
// (schemes::BlockFrame), the ozaki2 schemes' input check over every rank, and the ranks' stage
// reports merged into one process's.
#pragma once
#include <string>
#include <vector>

#include "mpi/rank_part.hpp"
#include "schemes/pipeline/block_frame.hpp"
#include "schemes/stage_report.hpp"

namespace ozref::mpi {

// This rank's block in the whole product: A's rows checked by the grid row's first rank, B's
// columns by the grid column's; the accurate scaling's maxima over the grid row and column.
schemes::BlockFrame frame_of(const RankPart& part);

// The ozaki2 schemes' check_inputs over every rank (collective): the first NaN or infinity of A,
// else of B, in C order of the whole matrices, named as one process names it.
void require_finite_operands(const RankPart& part, const std::string& scheme);

// Every rank's stage reports merged on rank 0, then handed to every rank (collective).
std::vector<schemes::StageReport> merged_reports(const std::vector<schemes::StageReport>& mine);

}  // namespace ozref::mpi
