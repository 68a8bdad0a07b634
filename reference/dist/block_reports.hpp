// A distributed run's stage reports: each rank's, for its block of C (schemes/pipeline/block_frame.hpp),
// merged into the reports one process makes of the whole product. Each element is checked on one
// rank (the frame's checks_a, checks_b), so counts add up; the first violation is the one with the
// least ViolationKey, the one a single process meets first.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "schemes/stage_report.hpp"

namespace ozref::dist {

// Every rank's reports in rank order, each list the same stages in the same order. Besides the
// sums: the CRT bound stops at its first failing element (one violation, condition_held false),
// so ranks whose bound failed count one violation together; a GEMM's note "<label>: W of M
// elements not exact" sums W over the ranks, and the notes are ordered by StageReport::note_at;
// the times are the slowest rank's. A subject's comparisons (a distributed verify-trace): the
// differing elements summed, the first difference the one with the least StageComparison::first_at.
std::vector<schemes::StageReport> merge_block_reports(const std::vector<std::vector<schemes::StageReport>>& ranks);

// The reports as the ranks exchange them (every field but a comparison's pending reproducer,
// which stays on its rank).
nlohmann::json block_reports_json(const std::vector<schemes::StageReport>& reports);
std::vector<schemes::StageReport> block_reports_from_json(const nlohmann::json& j);

}  // namespace ozref::dist
