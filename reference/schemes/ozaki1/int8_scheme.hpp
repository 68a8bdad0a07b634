// ozaki1-int8: Ozaki scheme I on INT8 tensor cores (ozIMMU), as named stages:
//   scale       row and column shifts so that |A 2^s| < 2^w (w: slice width)
//   slices      p signed slices of w bits by truncation (ozIMMU: w = min(7, floor((31 - ceil(log2 K)) / 2)),
//               so that no INT32 accumulation can overflow)
//   gemm        the triangular p(p+1)/2 INT8 GEMMs A_t B_u with t + u <= p - 1, through the MMA model
//   accumulate  sum of C_tu 2^-(t+u)w: exact (one integer per element) or in FP64 in the order a
//               kernel adds them (ozIMMU: each INT32 product converted and added into an FP64 sum)
//   unscale     C = C' 2^-(s_i + t_j), rounded to FP64
#pragma once
#include <string>

#include "common/matrix.hpp"
#include "schemes/stage_report.hpp"
#include "trace/trace.hpp"

namespace ozref::schemes {

enum class Accumulation { Exact, Fp64 };
Accumulation parse_accumulation(const std::string& name);  // "exact", "fp64"

struct Ozaki1Int8Options {
  size_t slices = 4;  // p, 1..9
  std::string arch = "ideal";
  Accumulation accumulation = Accumulation::Exact;
  Verify verify = Verify::Full;
  int threads = 0;
};

// InputError for NaN or infinity, p outside 1..9, or K so large that no slice width fits (K >= 2^29).
SchemeResult run_ozaki1_int8(const Matrix<double>& a, const Matrix<double>& b, const Ozaki1Int8Options& options,
                             TraceWriter* trace);

}  // namespace ozref::schemes
