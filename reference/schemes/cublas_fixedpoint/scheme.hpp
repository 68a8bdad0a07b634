// cuBLAS 13.1's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH, strategy EAGER, mantissa
// control FIXED) as decoded from H200 records (docs/third-party.md, "cublas-fixedpoint@13.1"), bit
// for bit: scheme cublas-fixedpoint@13.1, --mantissa-bits B (quantized up to 8p - 1, p =
// ceil((B + 1) / 8) INT8 slices), --kblock N (default: the fitted rule, kblock.hpp). Stages in order:
//   scale       per K-block, a power-of-two scale per row of A and column of B
//   slice       each element truncated to B bits below its scale, as p balanced base-256 digits
//   gemm        per block, the first p anti-diagonals of digit products (INT8 GEMMs, sm_90 model)
//   accumulate  FP64: each block's diagonals highest weight first, then the blocks in K order
// or, for a DYNAMIC count above its max mantissa bit count (79 unless set), one stage:
//   fallback    native FP64: K in parts, each a chain of FMAs, the parts added in order
#pragma once
#include <string>

#include "schemes/pipeline/scheme.hpp"

namespace ozref::schemes {

inline constexpr const char* kCublasFixedpointScheme = "cublas-fixedpoint@13.1";

// DYNAMIC's max mantissa bit count on a fresh handle (cuBLAS reports 0, "the default"): counts above
// it run native FP64 (the edge probe's records, docs/third-party.md).
inline constexpr int kDefaultDynamicMax = 79;

// --mantissa-bits: 23..127 (the FIXED control: 23..79 documented, up to 127 accepted and recorded),
// or "dynamic:N[:MAX]", a DYNAMIC run whose count the decoded rule gave as N (0 and up) under the
// max mantissa bit count MAX (0..127; 0 or absent: kDefaultDynamicMax): what with_dynamic_count
// makes of "dynamic" and a manifest records. InputError for "dynamic" itself (its count needs the
// inputs: only a run that has them resolves it), an empty or malformed value, or one out of range.
struct CublasMantissaBits {
  int bits = 0;
  bool dynamic = false;  // the count came from the DYNAMIC rule
  int max_bits = 0;      // DYNAMIC's max mantissa bit count (counts above it: native FP64)
};
CublasMantissaBits cublas_mantissa_bits(const std::string& value);

// "dynamic" resolved on the inputs (a: m x k, b: k x n, row-major) to "dynamic:N", N the DYNAMIC
// control's count (cublas_fixedpoint/dynamic_count.hpp); any other value unchanged. InputError where
// the rule gives no count.
std::string with_dynamic_count(const std::string& value, const double* a, const double* b, size_t m, size_t n, size_t k);

// DYNAMIC above its max: the native FP64 fallback (one stage, fallback). Otherwise InputError for
// bits outside 23..127 (a DYNAMIC count: 0..127) or K-blocks whose INT32 sums could overflow (p kb > 131071).
Scheme cublas_fixedpoint_scheme(CublasMantissaBits bits, size_t kblock, size_t m, size_t n, size_t k);

}  // namespace ozref::schemes
