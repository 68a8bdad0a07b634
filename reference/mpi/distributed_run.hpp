// `ozref run` over every rank of MPI_COMM_WORLD (collective; docs/scale.md). C is split into the
// 2-D blocks of exact and check: each rank reads its rows of A and columns of B from the files and
// runs the scheme on them, its stages' checks naming and ordering elements as in the whole product
// (schemes/pipeline/block_frame.hpp), the accurate scaling's line maxima taken over the grid row
// and grid column. The stage reports are merged exactly (dist/block_reports.hpp), the accuracy
// figures too (mpi/merged_metrics.hpp), and C is written by every rank into one file: the outputs
// and reports of one process, bit for bit. Bad input on any rank stops every rank with the message
// one process would print.
#pragma once
#include <string>

#include "api/scheme_run.hpp"

namespace ozref::mpi {

// Why run_distributed does not take this run (empty: it does): a scheme other than ozaki2-int8, a
// complex product, generated operands or a trace folder (--dump).
std::string why_not_distributed(const std::string& scheme, bool complex, bool files, bool dump);

// On every rank: the whole product's scheme, its verification level and the merged result (its c
// left empty: C goes to `out_path`, when given, written by every rank).
SchemeRun run_distributed(const SchemeRunRequest& request, const std::string& a_path, const std::string& b_path,
                          const std::string& out_path);

}  // namespace ozref::mpi
