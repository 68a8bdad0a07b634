// cuBLAS 13.1's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH, strategy EAGER, mantissa
// control FIXED) as decoded from H200 records (docs/third-party.md, "cublas-fixedpoint@13.1"), bit
// for bit: scheme cublas-fixedpoint@13.1, --mantissa-bits B (quantized up to 8p - 1, p =
// ceil((B + 1) / 8) INT8 slices), --kblock N (default: the fitted rule, kblock.hpp). Stages in order:
//   scale       per K-block, a power-of-two scale per row of A and column of B
//   slice       each element truncated to B bits below its scale, as p balanced base-256 digits
//   gemm        per block, the first p anti-diagonals of digit products (INT8 GEMMs, sm_90 model)
//   accumulate  FP64: each block's diagonals highest weight first, then the blocks in K order
#pragma once
#include <string>

#include "schemes/pipeline/scheme.hpp"

namespace ozref::schemes {

inline constexpr const char* kCublasFixedpointScheme = "cublas-fixedpoint@13.1";

// The bit count of --mantissa-bits: 23..79 (the FIXED control's range) or a count up to 127 (what
// the DYNAMIC control has reported: 124); InputError for "dynamic" (not decoded: the message says
// how to reproduce a DYNAMIC run), an empty or malformed value, or one out of range.
int cublas_mantissa_bits(const std::string& value);

// InputError for bits outside 23..127 or K-blocks whose INT32 sums could overflow (p kb > 131071).
Scheme cublas_fixedpoint_scheme(int bits, size_t kblock, size_t m, size_t n, size_t k);

}  // namespace ozref::schemes
