// The exact product of two matrices of wide integers by the Chinese remainder theorem.
//
// In the int8 mode (K < 2^17 and results up to about 350 bits) the product is computed modulo
// pairwise coprime moduli up to 256, one exact int8 GEMM each (exact/int8_residue_gemm), joined
// three by three into moduli below 2^24. Otherwise it is computed modulo primes p with
// K * ((p - 1) / 2)^2 <= 2^53, one OpenBLAS DGEMM per prime: the operands' balanced residues are at
// most (p - 1) / 2 in magnitude, so every product and every partial sum of K of them is an integer
// of at most 2^53, exact in FP64 in any summation order. Garner's algorithm then rebuilds each
// element from its residues. The work is linear in the bits of the result (about 8 bits per int8
// GEMM, 22 per DGEMM at K = 1024), where cutting the operands into slices is quadratic in them.
// docs/exact.md has the derivation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "common/buffer.hpp"

namespace ozref {

// Element (r, c) = significand * 2^shift, an exact integer (|significand| < 2^53). Buffers: their
// makers write every element from their threads, which so also take the first touch of the pages.
struct ScaledIntegerMatrix {
  size_t rows = 0, cols = 0;
  Buffer<int64_t> significand;
  Buffer<uint16_t> shift;
};

// The elements of a product as sign and magnitude, `words` little-endian 64-bit words each.
struct WideIntegerMatrix {
  size_t rows = 0, cols = 0, words = 0;
  std::vector<uint64_t> magnitude;
  std::vector<uint8_t> negative;
  std::span<const uint64_t> at(size_t idx) const { return {magnitude.data() + idx * words, words}; }
};

// How crt_gemm computes a product of depth k whose elements are below 2^bits in magnitude:
// `gemms` products of residue matrices (int8 GEMMs in the int8 mode, else DGEMMs) and `moduli`
// moduli for Garner's algorithm; no moduli when k or bits is beyond what this method handles. For
// operands whose shifts are within kInt8MaxShift (crt_gemm takes the DGEMM mode for wider ones).
struct CrtPlan {
  int gemms = 0, moduli = 0;
  bool int8 = false;
};
CrtPlan crt_plan(size_t k, long bits);

// a * b exactly, given that every element of it is below 2^bits in magnitude. Runs on OpenMP's
// threads.
WideIntegerMatrix crt_gemm(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b, long bits);

// Elements [first, first + count) of a product (row-major): element first + e as sign negative[e]
// and magnitude words [e * words, (e + 1) * words).
struct ProductBlock {
  size_t first = 0, count = 0, words = 0;
  const uint64_t* magnitude = nullptr;
  const uint8_t* negative = nullptr;
};
using ProductSink = std::function<void(const ProductBlock&)>;

// The same, each block of elements handed to `sink` as soon as it is rebuilt (so that the whole
// wide product is never stored), from OpenMP's threads on disjoint blocks. B comes transposed
// (its columns as rows: what the int8 GEMMs take), and both operands are taken, to be released
// once their residues are formed.
void crt_gemm(ScaledIntegerMatrix a, ScaledIntegerMatrix b_transposed, long bits, const ProductSink& sink);

}  // namespace ozref
