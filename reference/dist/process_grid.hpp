// How a distributed verb splits C (m x n) over R ranks: a grid of pr x pc ranks (pr * pc = R),
// each owning one block of consecutive rows and consecutive columns. A rank's block needs its
// rows of A and its columns of B: (m / pr + n / pc) * k elements, which the grid minimises over
// the factorisations of R, so that a square C on a square R reads 2 n k / sqrt(R) per rank.
#pragma once
#include <cstddef>

namespace ozref::dist {

struct ProcessGrid {
  int rows = 1, cols = 1;
};

// The factorisation of `ranks` (>= 1) with the least (m / rows + n / cols); ties go to more rows.
ProcessGrid process_grid(int ranks, size_t m, size_t n);

struct Range {
  size_t begin = 0, end = 0;
  size_t size() const { return end - begin; }
};

// Part `index` of [0, extent) cut into `parts` consecutive ranges whose sizes differ by at most one.
Range part_of(size_t extent, int parts, int index);

struct Block {
  Range rows, cols;
};

// The block of C that `rank` owns: grid row rank / grid.cols, grid column rank % grid.cols.
Block block_of(size_t m, size_t n, ProcessGrid grid, int rank);

}  // namespace ozref::dist
