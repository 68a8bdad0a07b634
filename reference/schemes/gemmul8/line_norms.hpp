// The fast mode's per-line statistics in GEMMul8 v2.0.14's own order (src/find_max.hpp): each
// line's largest magnitude and its sum of squares summed upward (__fma_ru, then __dadd_ru trees).
//   A's rows (compute_sftA_kernel, a 32 x 32 tile per 32 rows): lane y of a row sums columns
//     y, y + 32, y + 64, ... in order; the 32 lane sums meet in a shuffle tree (offsets 16, 8, 4,
//     2, 1; lane i adds lane i + offset).
//   B's columns (scalingB_kernel, 256 threads): thread t sums rows t, t + 256, ...; each warp's 32
//     sums meet in the same tree, then the 8 warp sums (padded with zeros to 32 lanes) do.
// The maximum does not depend on the order.
#pragma once
#include "common/matrix.hpp"

namespace ozref::schemes::gemmul8 {

void row_norms(MatrixView<double> a, double* amax, double* sum_of_squares);
void column_norms(MatrixView<double> b, double* amax, double* sum_of_squares);

}  // namespace ozref::schemes::gemmul8
