#include "schemes/gemmul8/line_norms.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "schemes/gemmul8/cuda_math.hpp"

namespace ozref::schemes::gemmul8 {
namespace {

// inner_warp_sum: 32 lanes, offsets 16 down to 1, each lane adding the lane `offset` above it
// upward; lane 0 holds the result.
double warp_tree(double lanes[32]) {
  for (int offset = 16; offset > 0; offset /= 2)
    for (int i = 0; i < offset; ++i) lanes[i] = dadd_ru(lanes[i], lanes[i + offset]);
  return lanes[0];
}

// Largest magnitude and per-thread upward sums of squares of x[0], x[stride], ... (count elements),
// thread t taking elements t, t + threads, ...
double thread_sums(const double* x, size_t count, size_t stride, size_t threads, std::vector<double>& sums) {
  sums.assign(threads, 0.0);
  double amax = 0;
  for (size_t v = 0; v < count; ++v) {
    const double mag = std::fabs(x[v * stride]);
    amax = std::max(amax, mag);
    sums[v % threads] = fma_ru(mag, mag, sums[v % threads]);
  }
  return amax;
}

}  // namespace

void row_norms(MatrixView<double> a, double* amax, double* sum_of_squares) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < a.rows; ++i) {
    std::vector<double> lanes;
    amax[i] = thread_sums(&a.data[i * a.cols], a.cols, 1, 32, lanes);
    sum_of_squares[i] = warp_tree(lanes.data());
  }
}

void column_norms(MatrixView<double> b, double* amax, double* sum_of_squares) {
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < b.cols; ++j) {
    std::vector<double> threads;
    amax[j] = thread_sums(b.column(j), b.rows, b.cols, 256, threads);
    double warps[32] = {};
    for (size_t w = 0; w < 8; ++w) warps[w] = warp_tree(&threads[w * 32]);
    sum_of_squares[j] = warp_tree(warps);
  }
}

}  // namespace ozref::schemes::gemmul8
