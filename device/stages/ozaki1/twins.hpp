// The GPU twins of the Ozaki-I stages of ozaki1-int8 and ozaki1-fp4 (reference/schemes/ozaki1/), on device
// pointers: the same names, array layouts and rounding order as the CPU stages, so that their
// outputs are bit-identical. m, n, k are those of the real product the slices multiply (a complex
// run's stacked product: 2m, n, 2k). Each launches its kernels and waits for them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "stages/ozaki1/slicing.cuh"

namespace ozref::device::ozaki1 {

struct Shape {
  size_t m = 0, n = 0, k = 0, p = 0;  // p slices
};

// stack (complex, 4M): [A_re -A_im; A_im A_re] (2m x 2k) and [B_re; B_im] (2k x n) from the parts
// of A (2 x m x k) and B (2 x k x n); m, k here are the parts' own.
void stack(size_t m, size_t k, size_t n, const double* a, const double* b, double* stacked_a, double* stacked_b);

// scale: each row's and column's shift from its largest magnitude, so that the scaled magnitudes
// stay below 2^bits (the CPU Slicing's magnitude_bits()).
void scale(const Shape& s, int bits, const double* a, const double* b, int32_t* row_shift, int32_t* col_shift);

// slices: A's (p x m x k) and B's (p x k x n) slices.
void slices(const Shape& s, Slicing v, int w, const double* a, const double* b, const int32_t* row_shift, const int32_t* col_shift,
            int8_t* slices_a, int8_t* slices_b);

// The gemm stage's operands. B's p slices (p x k x n) by columns (p x n x k); and the operands of
// the fused GEMM of t + u = d: rows of [X_0 .. X_d] (rows x (d+1)k) from p slices of rows x k
// (reversed: [X_d .. X_0], for B's columns).
void slice_columns(const Shape& s, const int8_t* slices_b, int8_t* columns);
void concatenate(const int8_t* slices, size_t rows, size_t k, size_t d, bool reversed, int8_t* out);

// The weight of GEMM output q in the accumulation: exactly (low + 2^64 high), and rounded to FP64.
struct OutputWeight {
  uint64_t low = 0, high = 0;
  double fp64 = 0;
};

// accumulate: C' = sum_q weight_q C_q as `words` 64-bit words (exact, fused; out: int64_t), or with
// words = 0 the FP64 sum of C_q * weight_q.fp64 in q order (fp64; out: double). c: the GEMM
// outputs (outputs x m x n), INT32, or FP32 bits (fp4: E2M1 products of halved digits, the
// integer being the value times 4).
void accumulate(const Shape& s, const int32_t* c, const std::vector<OutputWeight>& weights, size_t words, void* out);
void accumulate(const Shape& s, const uint32_t* c, const std::vector<OutputWeight>& weights, size_t words, void* out);

// unscale: C = C' 2^(unit - s_i - t_j) correctly rounded (exact), or ldexp(sum, -s_i - t_j) (fp64).
void unscale_exact(const Shape& s, const int64_t* c, size_t words, int unit, const int32_t* row_shift, const int32_t* col_shift, double* out);
void unscale_fp64(const Shape& s, const double* sum, const int32_t* row_shift, const int32_t* col_shift, double* out);

}  // namespace ozref::device::ozaki1
