// Ozaki scheme I (ozaki1-int8 as ozIMMU, ozaki1-fp4 with base-13 digits) as named stages
// (stages.hpp, one file each):
//   stack       (complex runs, 4M) the stacked real product [A_re -A_im; A_im A_re] [B_re; B_im]
//   scale       row and column power-of-two shifts (slicing.hpp)
//   slices      p slices of each scaled element, most significant first (ozaki1-int8: ozIMMU's signed
//               w-bit slices, or with --slicing cublas a signed leading slice and unsigned bytes)
//   gemm        the triangular p(p+1)/2 low-precision GEMMs A_t B_u, t + u <= p - 1, through the
//               MMA model (int8 --accumulate fused: the products of one t + u share one INT32
//               accumulator, as a one-kernel implementation (EmuGEMM-I) sums them)
//   accumulate  C' = sum weight(t + u) C_tu: exact (one integer per element) or in FP64 in the
//               order a kernel adds them (ozIMMU: each product converted and added to an FP64 sum)
//   unscale     C = C' 2^(unit - s_i - t_j), rounded to FP64
#pragma once
#include <string>

#include "common/matrix.hpp"
#include "schemes/ozaki1/slicing.hpp"
#include "schemes/pipeline/scheme.hpp"
#include "schemes/stage_report.hpp"
#include "trace/trace.hpp"

namespace ozref::schemes {

// exact and fp64 as above; fused (int8 only): exact, with the INT32 accumulation of EmuGEMM-I.
enum class Accumulation { Exact, Fp64, Fused };
Accumulation parse_accumulation(const std::string& name);  // "exact", "fp64", "fused"

struct Ozaki1Options {
  Ozaki1Variant variant = Ozaki1Variant::Int8;
  size_t slices = 0;  // p: int8 (either slicing) 1..9 (default 4), fp4 1..16 (default 15)
  std::string arch = "ideal";
  Accumulation accumulation = Accumulation::Exact;
  Verify verify = Verify::Full;
  int threads = 0;
};

// p: --slices, else the variant's default.
size_t ozaki1_slice_count(const Ozaki1Options& o);

// The scheme for an m x k by k x n product of `parts` parts (2: complex, 4M through the stacked
// real product); InputError for p out of range, fused with fp4 or the cublas slicing, or K too
// large (int8: no slice width fits, K >= 2^29; cublas: K > 33025; fp4: K > 262144, the bound for
// exact FP4 GEMMs of greedy digits; a complex run doubles K).
Scheme ozaki1_scheme(const Ozaki1Options& options, size_t m, size_t n, size_t k, size_t parts);

// InputError for NaN or infinity besides the above.
SchemeResult run_ozaki1(const Matrix<double>& a, const Matrix<double>& b, const Ozaki1Options& options, TraceWriter* trace);

// The complex product (4M): the real scheme on [A_re -A_im; A_im A_re] [B_re; B_im] = [Re C; Im C]
// (the stack stage), so every slice GEMM covers the four products A_re B_re, -A_im B_im, A_im B_re,
// A_re B_im (K doubled: the real and imaginary contributions share an INT32 accumulator, and the
// slice width is chosen for 2K). Rows are scaled on the larger of the real and imaginary
// magnitudes. low_precision_gemms counts m x k x n products (4 per slice pair). Result: c and
// c_imag.
SchemeResult run_ozaki1_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                                const Matrix<double>& b_im, const Ozaki1Options& options, TraceWriter* trace);

}  // namespace ozref::schemes
