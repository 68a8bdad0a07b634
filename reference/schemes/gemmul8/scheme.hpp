// GEMMul8 v2.0.14 (RIKEN-RCCS/GEMMul8, commit 71296f9), gemmul8::gemm<double, Backend::INT8> with
// op N, N, alpha 1, beta 0, as built by its Makefile (nvcc -O3, FMA contraction on; the operations
// that matter are explicit intrinsics, and nvcc contracts none of the rest: docs/third-party.md),
// bit for bit: scheme gemmul8@2.0.14, --mode fast|accurate, --moduli 2..20. Stages in order:
//   bound      (accurate) ozaki2's: ceil(|A| 2^u) <= 64 by rows, likewise B by columns, C_hi through
//              the INT8 GEMM (GEMMul8's extract_*_lo kernels and its extra cuBLAS INT8 GEMM)
//   scale      GEMMul8's shifts (shifts.hpp)
//   truncate   ozaki2's: A' = trunc(A 2^s), B' = trunc(2^t B), with the CRT-range check
//   residues   GEMMul8's integer conversion and residues (residues.cpp)
//   gemm       ozaki2's: one INT8 GEMM per modulus (cuBLAS INT8, exact, on the sm_90 model)
//   reduce     ozaki2's: the balanced residue of each INT32 output (GEMMul8's conv_hi2mid)
//   crt        GEMMul8's double-double reconstruction (crt_tables.hpp)
//   unscale    scalbn by the stored shifts
#pragma once
#include <string>

#include "schemes/gemmul8/setup.hpp"
#include "schemes/pipeline/scheme.hpp"

namespace ozref::schemes {

inline constexpr const char* kGemmul8Scheme = "gemmul8@2.0.14";

// InputError for moduli outside 2..20 or K beyond 131071 (GEMMul8 documents k <= 2^17, but at
// 2^17 its INT8 GEMMs can overflow INT32: docs/proofs.md).
Scheme gemmul8_scheme(gemmul8::Mode mode, size_t moduli, size_t m, size_t n, size_t k);

}  // namespace ozref::schemes
