// The fast exact GEMM: the exact value of every element of A*B for FP64 (or FP32, widened
// exactly) inputs, whatever the exponent spread, subnormals included, rounded once.
//
// Method (docs/exact.md has the derivation): each row of A (column of B) becomes integers by
// scaling it to its lowest set bit, so the exact product is an integer matrix times a power of two
// per element. That integer product is computed modulo a few moduli, one exact int8 GEMM (or
// OpenBLAS DGEMM) each (exact/crt_gemm.hpp), and rebuilt by the Chinese remainder theorem; each
// element is rounded once. When the exponent spread would need too many primes, a direct path adds every
// exact 106-bit product into a wide fixed-point accumulator per element instead.
#pragma once
#include <cstdint>
#include <vector>

#include "common/buffer.hpp"
#include "common/matrix.hpp"

namespace ozref {

// Buffers, so that exact_gemm's threads take the first touch of their pages (one thread zeroing
// them took a sizeable serial part of the product at 16 threads: docs/scale.md).
struct ExactProduct {
  size_t rows = 0, cols = 0, depth = 0;
  Buffer<double> nearest;         // the exact element rounded to FP64, nearest-even (+-Inf past
                                  // the FP64 range; NaN by the IEEE rules in exact/specials.hpp)
  // E - nearest in the x87 80-bit format, rounded to odd (0 if nearest is not finite): relative
  // error below 2^-63 at every magnitude, FP64's subnormal range included, where an FP64 residual
  // would underflow; rounded to FP64 it gives E - nearest correctly rounded.
  Buffer<long double> residual;
  Buffer<uint8_t> residual_exact;  // 1 when E == nearest + residual exactly
  Buffer<float> nearest_fp32;      // the exact element rounded once to FP32, nearest-even
  int moduli = 0;                       // residue GEMMs of the modular path (0 when the direct path ran)
  size_t panels = 0;                    // panels of C the modular path ran in (0 when the direct path ran)
  bool direct_path = false;
};

// Which method computes the product; the two are tested against each other and the GMP oracle.
enum class ExactMethod {
  Fastest,  // by an estimate of their costs
  Modular,  // the modular path wherever a prime basis exists, else the direct path
  Direct,
};

struct ExactGemmOptions {
  int threads = 0;  // 0: OpenMP's default
  ExactMethod method = ExactMethod::Fastest;
  // The buffers one run of the modular path may take: a larger product runs in panels of C, one
  // after another, each within it (each element depends only on its row of A and column of B, so a
  // panel computed alone is bit for bit that part of the whole product).
  double max_modular_bytes = 4.0 * (1 << 30);
};

ExactProduct exact_gemm(const Matrix<double>& a, const Matrix<double>& b,
                        const ExactGemmOptions& options = {});

}  // namespace ozref
