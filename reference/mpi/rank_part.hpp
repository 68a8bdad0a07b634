// One rank's share of a distributed verb's operands (docs/scale.md): the grid of ranks, its block
// of C, and the rows of A and columns of B that block needs, read straight from the files.
#pragma once
#include <cstdint>
#include <string>

#include "dist/block_operands.hpp"
#include "exact/metrics.hpp"

namespace ozref::mpi {

struct RankPart {
  dist::OperandFiles files;
  dist::ProcessGrid grid;
  dist::Block block;
  Operands ops;
};

// Opens A and B, checks them as one process does and reads this rank's part (not collective:
// wrap it in on_every_rank).
void read_rank_part(RankPart& part, const std::string& a_path, const std::string& b_path);

// Where the rank's block lies in C, so that the worst element it measures is named by its place in the whole.
inline PartPlace place_of(const RankPart& part) { return {part.block.rows.begin, part.block.cols.begin, 0}; }

// OZREF_IO_REPORT=1: this rank's block and read volume on standard error (docs/scale.md checks it
// against the 2-D bound); the reports themselves are unchanged.
void report_reads(const RankPart& part, uint64_t c_bytes);

}  // namespace ozref::mpi
