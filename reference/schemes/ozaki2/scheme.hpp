// Ozaki scheme II (ozaki2-int8, ozaki2-fp8, ozaki2-fp4, and rare: fp64-emu's form) as named stages
// (stages.hpp, one file each):
//   bound      (accurate scaling) the bound GEMM C_hi = |A|'|B|' of the scaled magnitudes
//   scale      row and column power-of-two shifts (fast, accurate, gemmul8-fast; rare: its own)
//   truncate   A' = trunc(A 2^s), B' = trunc(2^t B): integers, held exactly in doubles
//              (rare: round, nearest-even, with two correction planes)
//   residues   balanced residues of A' and B' modulo each modulus
//   split      (fp8, fp4) each residue written as the limbs its modulus's GEMMs multiply
//   gemm       the low-precision GEMMs of every modulus through the MMA model of --arch
//   reduce     (int8, rare) each INT32 output reduced to its balanced residue (the kernel's Barrett)
//   recombine  (fp8, fp4) the weighted sum of a modulus's GEMM outputs, reduced mod m
//   correction (rare) the two correction GEMMs
//   complex    (complex runs) the 3M combination of the three plane products
//   crt        the integer C' from its residues (exact, Garner, or GEMMul8's double-double)
//   unscale    C = C' 2^-(s_i + t_j), rounded to FP64
// How each variant splits and recombines: modular_product.hpp. Each stage verifies its contract
// with exact arithmetic (docs/schemes.md lists the contracts and the trace's arrays).
#pragma once
#include <string>

#include "common/matrix.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/ozaki2/modular_product.hpp"
#include "schemes/ozaki2/scaling.hpp"
#include "schemes/pipeline/scheme.hpp"
#include "schemes/stage_report.hpp"
#include "trace/trace.hpp"

namespace ozref::schemes {

struct Ozaki2Options {
  Ozaki2Variant variant = Ozaki2Variant::Int8;
  size_t moduli = 0;     // the first N of the variant's list; 0: its default (int8 16, fp8 14, fp4 19, rare by K)
  // ozaki2-int8: a kernel's own pairwise-coprime moduli, each 3..256, in place of the list's
  // prefix (moduli_list.hpp); empty: the list's.
  std::vector<int64_t> moduli_list;
  std::string arch = "ideal";
  std::string op;        // the low-precision instruction; empty: the architecture's first choice
  ScalingMode mode = ScalingMode::Accurate;
  CrtVariant crt = CrtVariant::Exact;
  ComplexProduct complex_product = ComplexProduct::ThreeM;  // complex runs: 3M, or (int8) Gaussian moduli
  Verify verify = Verify::Full;
  int threads = 0;
  BlockFrame block;  // a distributed run's block of C (schemes/pipeline/block_frame.hpp)
  bool kernel_arrays = false;  // a kernel's arrays (SchemeOptions::kernel_arrays): K past the bound allowed
  // ozaki2-int8: a kernel that splits K into blocks of this depth (the last one shorter), one INT32
  // GEMM per block, and reduces the blocks' sum; 0: one GEMM over all of K. The bound on K is then
  // the block's.
  size_t kblock = 0;
};

// The largest K each variant accepts: int8 131071 (K 128^2 < 2^31); fp8 65536 (limbs of at most
// 16: K 16^2 <= 2^24 keeps an FP32 sum exact); fp4 116509 (digits of at most 12, products in
// quarters: 144 K <= 2^24). `ozref prove` derives each (exact_k.*, int32.ozaki2_int8.k).
size_t ozaki2_max_k(Ozaki2Variant v);
// The number of moduli a run uses: --moduli, else the variant's default (rare: by K, as fp64-emu).
size_t ozaki2_moduli_count(const Ozaki2Options& o, size_t k);

// The scheme for an m x k by k x n product of `parts` parts (2: complex, 3M or Gaussian);
// InputError for N outside 2..(list size), K (or the K-block) beyond the variant's bound (unless kernel_arrays), a K-block
// outside ozaki2-int8, an architecture without
// the variant's instruction, a complex rare, or a Gaussian product that is not a complex int8 run.
Scheme ozaki2_scheme(const Ozaki2Options& options, size_t m, size_t n, size_t k, size_t parts);

// Runs the scheme on finite FP64 matrices (InputError for NaN or infinity); `trace` may be null.
SchemeResult run_ozaki2(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Options& options,
                        TraceWriter* trace);

// The complex product (3M): per modulus the residue products A_re B_re, A_im B_im and
// (A_re + A_im)(B_re + B_im) (the sums formed in residue arithmetic), combined modulo m into
// Re = T1 - T2 and Im = T3 - T1 - T2 (the `complex` stage), then CRT and unscale for both.
// With options.complex_product Gaussian (ozaki2-int8): two products per modulus on the Gaussian
// moduli instead (complex_product.hpp).
// Rows and columns are scaled on the magnitudes |re| + |im|; the exactness condition is
// sum (|A'_re| + |A'_im|)(|B'_re| + |B'_im|) < P/2. Result: c (real part) and c_imag; accuracy
// against the exact complex product. Not for rare (fp64-emu has no complex path).
SchemeResult run_ozaki2_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                                const Matrix<double>& b_im, const Ozaki2Options& options, TraceWriter* trace);

}  // namespace ozref::schemes
