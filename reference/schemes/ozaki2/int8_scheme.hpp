// ozaki2-int8: the Ozaki-II scheme on INT8 tensor cores (GEMMul8, fp64-emu), as named stages:
//   scale      row and column power-of-two shifts (fast or accurate mode)
//   truncate   A' = trunc(A 2^s), B' = trunc(2^t B): integers, held exactly in doubles
//   residues   balanced residues of A' and B' modulo each modulus (int8)
//   gemm       one INT8 GEMM per modulus through the MMA model of --arch (int32)
//   reduce     each INT32 result reduced to its balanced residue (the kernel's Barrett reduction)
//   crt        the integer C' from its residues (exact, Garner, or GEMMul8's double-double)
//   unscale    C = C' 2^-(s_i + t_j), rounded to FP64
// Each stage verifies its contract with exact arithmetic (docs/schemes.md lists the contracts,
// the array names, shapes and dtypes of the trace).
#pragma once
#include <string>

#include "common/matrix.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/ozaki2/scaling.hpp"
#include "schemes/stage_report.hpp"
#include "trace/trace.hpp"

namespace ozref::schemes {

struct Ozaki2Int8Options {
  size_t moduli = 16;  // the first N of the INT8 list, 2..20
  std::string arch = "ideal";
  ScalingMode mode = ScalingMode::Accurate;
  CrtVariant crt = CrtVariant::Exact;
  Verify verify = Verify::Full;
  int threads = 0;
};

// Runs the scheme on finite FP64 matrices; InputError for NaN or infinity, N outside 2..20, or
// K beyond the INT32 bound (K * 128^2 must stay below 2^31: K <= 131071). `trace` may be null.
SchemeResult run_ozaki2_int8(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Int8Options& options,
                             TraceWriter* trace);

}  // namespace ozref::schemes
