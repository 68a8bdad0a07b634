// int8-on-fp4: an INT8 x INT8 -> INT32 GEMM reproduced bit for bit by nine FP4 GEMMs, as named
// stages (stages.hpp, one file each):
//   limbs    each INT8 value written in three base-13 digits of S (greedy; |x| <= 128 < X_3 = 732),
//            each digit stored as the E2M1 value of half of it
//   gemm     the nine FP4 GEMMs A_i B_j (i, j = 0..2, i outer) through the MMA model of --arch,
//            FP32 accumulation
//   combine  C = sum 13^(i+j) C_ij, wrapped to INT32 as the INT8 MMA wraps
// Each stage verifies its contract with exact arithmetic (docs/schemes.md).
#pragma once
#include <string>

#include "common/matrix.hpp"
#include "schemes/pipeline/scheme.hpp"
#include "schemes/stage_report.hpp"
#include "trace/trace.hpp"

namespace ozref::schemes {

struct Int8OnFp4Options {
  std::string arch = "ideal";
  std::string op;  // the FP4 instruction; empty: the architecture's first choice
  Verify verify = Verify::Full;
  int threads = 0;
};

// The scheme for an m x k by k x n product; InputError for K beyond the bound below or an
// architecture without an FP4 instruction.
Scheme int8_on_fp4_scheme(const Int8OnFp4Options& options, size_t m, size_t n, size_t k);

// A and B must hold INT8 values (integers in [-128, 127]); K at most 262144, where every FP4 GEMM
// of greedy digits (at most 8) stays exact under FP32 accumulation (exact_k.greedy_fp4_digits.*).
// InputError otherwise.
SchemeResult run_int8_on_fp4(const Matrix<double>& a, const Matrix<double>& b, const Int8OnFp4Options& options,
                             TraceWriter* trace);

}  // namespace ozref::schemes
