// The exact product by exponent slices: the algorithm `ozref exact --device gpu` runs, as a CPU
// scheme (docs/exact.md, "The sliced exact product").
//
// Each row of A (column of B) is cut into slices by the lowest set bit of its entries: an entry
// whose lowest bit lies `off` bits above its line's lowest lands in slice off / W as the integer
// sig * 2^(off mod W), below 2^(53 + W). A product of one slice of A with one slice of B is then
// an integer product whose elements fit the int8 mode of exact/crt_gemm (one int8 GEMM per
// modulus, K split into blocks where int32 sums could overflow), whatever the exponent spread of
// the data; the slice pairs' integers are added exactly, each at its offset (s + t) W, and every
// element is rounded once by exact_gemm's own rounding (exact/exact_parts.hpp). Where every line
// fits one slice (randn, phi:1: the int8 mode's range) the slice is the whole line and the bound
// on the product is exact_gemm's, so the moduli are exact_gemm's.
#pragma once
#include <cstddef>

#include "common/matrix.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/exact_parts.hpp"

namespace ozref {

// How the sliced product runs, chosen from the data.
struct SlicePlan {
  int width = 0;                   // W (0: one slice per line, the line's whole width)
  int slices_a = 0, slices_b = 0;  // the most slices of any row of A, of any column of B
  long pair_bits = 0;              // every slice pair's integer product is below 2^pair_bits
  int moduli = 0;                  // int8 moduli (GEMMs) per slice pair and depth block
  size_t depth_block = 0;          // K per block (at most kInt8MaxDepth)
  size_t depth_blocks = 0;
  size_t pairs = 0;                // slice pairs and depth blocks computed (all-zero pairs skipped)
  size_t gemms() const { return pairs * size_t(moduli); }
};

SlicePlan slice_plan(const exact_parts::Analysis& an, size_t k);

struct SlicedProduct {
  ExactProduct product;  // as exact_gemm's, bit for bit (nearest, residual, nearest_fp32)
  SlicePlan plan;
};

// Runs on OpenMP's threads (threads = 0: OpenMP's default).
SlicedProduct sliced_exact(const Matrix<double>& a, const Matrix<double>& b, int threads = 0);

}  // namespace ozref
