// The GPU twins of the Ozaki-II stages (ozaki2-int8, ozaki2-fp8, ozaki2-fp4, and what rare
// shares), on device pointers: the same names, array layouts and rounding order as the CPU stages
// in reference/schemes/ozaki2/, so that their outputs are bit-identical where the stage is a
// function of its inputs. Each launches its kernels and waits for them (errors are exceptions,
// device/runtime/cuda_check.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "stages/ozaki2/limbs.cuh"

namespace ozref::device {
template <typename T>
class DeviceArray;  // runtime/cuda_check.hpp: the callers of the functions that return one include it
}  // namespace ozref::device

namespace ozref::device::ozaki2 {

// The shape of a run: parts S (1 real, 2 complex), residue planes P (1; complex 3 for 3M, 2 for
// the Gaussian product), moduli N.
struct Shape {
  size_t m = 0, n = 0, k = 0, S = 1, P = 1, N = 0;
};

// A Gaussian complex product's constants (schemes/ozaki2/complex_product.hpp), kGaussianConstants
// int32 per modulus: the complex stage's (iota, iota / 2 mod m, the inverse (m + 1) / 2 of 2, the
// Barrett factor floor(2^32 / m)) and the residues' (gaussian.cuh's GaussianConstant, built by
// gaussian_table), on the device: what the residues and
// complex twins take as `gaussian`, null for 3M and real runs. The one upload of them (the lockstep
// subject and the bench both call it); std::invalid_argument beyond kMaxGaussianModuli moduli.
constexpr size_t kGaussianConstants = 12, kMaxGaussianModuli = 22;
DeviceArray<int32_t> gaussian_constants_on_device(const std::vector<int64_t>& moduli);

// bound: A's rows (parts x m x k) and B's columns (parts x k x n) scaled to at most 2^bits (6 for
// INT8, 4 for E4M3) and rounded up (complex: on |re| + |im| rounded up): exponents and operands
// (A m x k, B n x k).
void bound_operands(const Shape& s, int bits, const double* a, const double* b, int32_t* row_exp, int32_t* col_exp, int8_t* op_a,
                    int8_t* op_b);

// scale (a free choice: the runner checks it through truncate's bound). fast: Cauchy-Schwarz from
// FP64 sums of squares inflated to cover their rounding; accurate: from the bound GEMM's outputs.
void scale_fast(const Shape& s, const double* a, const double* b, double log2_bound, int32_t* row_shift, int32_t* col_shift);
void scale_accurate(const Shape& s, const int32_t* c_hi, const int32_t* row_exp, const int32_t* col_exp, double log2_bound,
                    int32_t* row_shift, int32_t* col_shift);
// ozaki2-fp8's and ozaki2-fp4's FP32 bound GEMM, its outputs' values times 2^output_exponent (fp4: 2).
void scale_accurate(const Shape& s, const float* c_hi, int output_exponent, const int32_t* row_exp, const int32_t* col_exp, double log2_bound,
                    int32_t* row_shift, int32_t* col_shift);

// truncate: trunc(A 2^s_i), trunc(2^t_j B), every part.
void truncate(const Shape& s, const double* a, const double* b, const int32_t* row_shift, const int32_t* col_shift, double* ta, double* tb);

// residues: balanced residues of the integers (A's by rows N x P x m x k, B's by columns
// N x P x n x k; a complex run's planes formed in residue arithmetic: 3M's re, im, re + im, or with
// `gaussian` (gaussian_constants_on_device) re + iota im, re - iota im).
void residues(const Shape& s, const double* ta, const double* tb, const int64_t* moduli, const int32_t* gaussian, int8_t* ra, int8_t* rb);
void residues(const Shape& s, const double* ta, const double* tb, const int64_t* moduli, const int32_t* gaussian, int16_t* ra, int16_t* rb);
// truncate and residues in one pass, A' and B' never written: the emulated GEMM's path (the lockstep
// runs the two stages apart).
void truncate_residues(const Shape& s, const double* a, const double* b, const int32_t* row_shift, const int32_t* col_shift, const int64_t* moduli,
                       const int32_t* gaussian, int8_t* ra, int8_t* rb);

// split: the residues as limbs, modulus t's in rows limb_base[t] .. (limb, plane); fp8 from int16
// residues, fp4 from int8 residues through the two-limb tables.
void split(const Shape& s, const int16_t* ra, const int16_t* rb, const std::vector<LimbProduct>& products, const std::vector<size_t>& limb_base,
           int8_t* la, int8_t* lb);
void split(const Shape& s, const int8_t* ra, const int8_t* rb, const std::vector<LimbProduct>& products, const std::vector<size_t>& limb_base,
           const int8_t* two_limb_tables, int8_t* la, int8_t* lb);
// fp4: every class's two-limb form (two_limbs), 2 x LimbProducts::table_pairs bytes.
void two_limb_tables(const std::vector<LimbProduct>& products, int8_t* tables);
// The limbs (small integers) as the E4M3 bytes the FP8 GEMMs take.
void to_e4m3(const int8_t* limbs, size_t count, uint8_t* e4m3);
// The limbs (of S) as the E2M1 containers the FP4 GEMMs take (kind::f8f6f4).
void to_e2m1(const int8_t* limbs, size_t count, uint8_t* e2m1);

// reduce: the kernel's Barrett reduction of INT32 outputs (N x Q x m x n) to balanced residues.
void reduce(const Shape& s, size_t products, const int32_t* c, const int64_t* moduli, int16_t* r);
// recombine (fp8, fp4): FP32 GEMM outputs (rows term_base[t] x products of modulus t) to balanced residues.
void recombine(const Shape& s, size_t products, const uint32_t* c, const std::vector<LimbProduct>& mods, const std::vector<size_t>& term_base,
               int16_t* r);

// complex: Re = T1 - T2, Im = T3 - T1 - T2 mod m, from (N x 3 x m x n) into (N x 2 x m x n).
void combine_3m(const Shape& s, const int16_t* products, const int64_t* moduli, int16_t* out);
// complex, Gaussian: Re = (Z + W) / 2, Im = (W - Z) iota / 2 mod m, from (N x 2 x m x n) into (N x 2 x m x n).
void combine_gaussian(const Shape& s, const int16_t* products, const int64_t* moduli, const int32_t* gaussian, int16_t* out);

// crt, exact (and garner: the same integer): C' in (-P/2, P/2] as `words` 64-bit words from the
// weights w_t = q_t P / p_t and P (crt_element.cuh); dd: GEMMul8's double-double.
struct CrtTables {
  size_t words = 2;
  std::vector<double> weight_limbs;      // N x 2 words: w_t's 32-bit limbs, least significant first
  std::vector<double> weight_fractions;  // N: w_t / P rounded
  std::vector<uint64_t> product;         // P, words
  double inv_p = 0;                      // dd
  std::vector<double> w_hi, w_lo;   // dd
  double p_hi = 0, p_lo = 0;
};
void crt_exact(const Shape& s, const int16_t* residues, const CrtTables& t, int64_t* c);
void crt_dd(const Shape& s, const int16_t* residues, const CrtTables& t, double* hi, double* lo);

// unscale: (C' + correction 2^correction_exponent) 2^-(s_i + t_j) correctly rounded to FP64; dd:
// ldexp(hi + lo, -(s_i + t_j)). correction: null, or rare's 2 x m x n GEMM outputs.
void unscale_exact(const Shape& s, const int64_t* c, size_t words, const int32_t* row_shift, const int32_t* col_shift,
                   const int32_t* correction, int correction_exponent, double* out);
void unscale_dd(const Shape& s, const double* hi, const double* lo, const int32_t* row_shift, const int32_t* col_shift, double* out);

// crt (exact) and unscale (no correction) in one kernel, C' never written: the emulated GEMM's path.
void crt_unscale_exact(const Shape& s, const int16_t* residues, const CrtTables& t, const int32_t* row_shift, const int32_t* col_shift,
                       double* out);
// complex, crt and unscale in one kernel from the plane products, Gaussian (N x 2 x m x n) or 3M
// (N x 3 x m x n): the emulated ZGEMM's path; neither Re, Im residues nor C' are written.
void gaussian_crt_unscale_exact(const Shape& s, const int16_t* products, const std::vector<int64_t>& moduli, const CrtTables& t,
                                const int32_t* row_shift, const int32_t* col_shift, double* out);
void three_m_crt_unscale_exact(const Shape& s, const int16_t* products, const std::vector<int64_t>& moduli, const CrtTables& t,
                               const int32_t* row_shift, const int32_t* col_shift, double* out);

}  // namespace ozref::device::ozaki2
