// The bit count cuBLAS 13.1's DYNAMIC mantissa control chooses for a product (docs/third-party.md,
// "The DYNAMIC count"): 54 + the exponent span capacity (ESC) of arXiv 2511.13778, decoded from the
// counts cuBLAS reported on the H200 (cublas_kblock_probe dynamic-count). For each (i, j), ESC_ij =
// eA_i + eB_j - z_ij, with eA_i (eB_j) the largest exponent of row i of A (column j of B) over the
// whole K (not per K-block), and z_ij an under-estimate of the largest product's exponent: over
// blocks of 64 consecutive k from k = 0, the largest of max(maxA + minB, minA + maxB), exponents e
// with |x| in [2^(e-1), 2^e) (no near-2 bump) and a zero's -4194 (so that an (i, j) whose every
// block holds a zero in both lines gets 4248 + min(eA_i, eB_j): cuBLAS's 4249 and 4279, a count
// above every max, where it runs the native fallback). ESC is the largest ESC_ij over the (i, j)
// whose lines are not all zero. Values only: cancellation does not enter.
#pragma once
#include <cstddef>

namespace ozref::schemes::cublas_fixedpoint {

inline constexpr size_t kEstimateBlock = 64;  // the probe's coarse lines: 32 < size <= 64, aligned

// a: m x k row-major, b: k x n row-major.
int dynamic_bit_count(const double* a, const double* b, size_t m, size_t n, size_t k);

}  // namespace ozref::schemes::cublas_fixedpoint
