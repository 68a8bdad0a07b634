// The exact product of two matrices of wide integers by the Chinese remainder theorem.
//
// The product is computed modulo primes p with K * ((p - 1) / 2)^2 <= 2^53, one OpenBLAS DGEMM
// per prime: the operands' balanced residues are at most (p - 1) / 2 in magnitude, so every
// product and every partial sum of K of them is an integer of at most 2^53, exact in FP64 in any
// summation order. Garner's algorithm then rebuilds each element from its residues. The work is
// linear in the bits of the result (about 22 bits per DGEMM at K = 1024), where cutting the
// operands into slices is quadratic in them. docs/exact.md has the derivation.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ozref {

// Element (r, c) = significand * 2^shift, an exact integer (|significand| < 2^53).
struct ScaledIntegerMatrix {
  size_t rows = 0, cols = 0;
  std::vector<int64_t> significand;
  std::vector<uint16_t> shift;
};

// The elements of a product as sign and magnitude, `words` little-endian 64-bit words each.
struct WideIntegerMatrix {
  size_t rows = 0, cols = 0, words = 0;
  std::vector<uint64_t> magnitude;
  std::vector<uint8_t> negative;
  std::span<const uint64_t> at(size_t idx) const { return {magnitude.data() + idx * words, words}; }
};

// The primes a product of depth k needs when every element is below 2^bits in magnitude (0 when
// k is beyond what this method handles).
int crt_moduli_count(size_t k, long bits);

// a * b exactly, given that every element of it is below 2^bits in magnitude. Runs on OpenMP's
// threads; each runs single-threaded DGEMMs on its own band of rows.
WideIntegerMatrix crt_gemm(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b, long bits);

}  // namespace ozref
