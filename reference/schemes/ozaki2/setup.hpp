// What every Ozaki-II stage of one run shares, resolved once from the options and the shape: the
// moduli and their modular products, the CRT, the low-precision GEMM, and the axes of the arrays.
//   S  parts: 1 (real) or 2 (complex: re, im)
//   P  residue planes per modulus: 1, or for a complex run 3 (3M: re, im, re + im) or 2
//      (Gaussian: re + iota im, re - iota im)
//   Q  plane products per modulus: 1, or 3 for the 3M product (re re, im im, sum sum), 2 Gaussian
//   L  limb rows: the limbs of every modulus (split), G: the GEMM outputs of every modulus
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "schemes/common/crt.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes::ozaki2 {

struct Setup {
  Setup(const Ozaki2Options& options, size_t m, size_t n, size_t k, size_t parts);
  Ozaki2Options o;
  const Ozaki2Family& family;
  LowpGemm lowp;
  size_t N, m, n, k, S, P, Q;
  size_t kblock, kblocks;  // each GEMM's depth (the last block's may be shorter) and the GEMMs per term
  std::vector<std::pair<size_t, size_t>> pairs;  // the Q plane products (a plane, b plane)
  std::vector<std::unique_ptr<ModularProduct>> products;
  std::vector<int64_t> moduli;
  std::vector<GaussianModulus> gaussian;  // a Gaussian complex product's, per modulus; else empty
  Crt crt;
  bool int8, rare, narrow;  // narrow: every residue fits int8 (moduli <= 256)
  // Per modulus t (size N + 1): its first limb, its first GEMM term.
  std::vector<size_t> limb_base, term_base;

  DType residue_dtype() const { return narrow ? DType::I1 : DType::I2; }
  DType gemm_dtype() const { return int8 ? DType::I4 : DType::F4; }
  long double log2_bound() const;  // L = log2 P - 2: sum |A'||B'| <= 2^L <= P/4
  size_t crt_words() const;        // 64-bit words holding any C' in (-P/2, P/2] (at least 2)
  // The axes, each index labelled as the stages' messages name it ("modulus 251", "re",
  // "plane re+im", "product re", "K-block 2").
  Axis moduli_axis() const;
  Axis parts_axis() const;
  Axis planes_axis() const;
  Axis products_axis() const;
  Axis kblocks_axis() const;
  size_t kblock_depth(size_t b) const { return std::min(kblock, k - b * kblock); }
  std::vector<size_t> moduli_batches() const;  // one leading row per modulus
  std::string modulus_label(size_t t) const;   // "modulus 443"
  // What a kernel author needs (Scheme::constants): the moduli with their residue ranges, P and
  // log2 P, the CRT weights as decimal integers, the exactness condition, the largest K.
  nlohmann::json kernel_constants() const;
  const char* plane_name(size_t plane) const;  // "re", "im", "re+im", "re+i*im", "re-i*im"; "" for a real run
};

// Part s (0: re, 1: im) of a stage array of `parts` matrices of rows x cols.
inline MatrixView<double> part_of(const Tensor& x, size_t s, size_t rows, size_t cols) {
  return {x.as<double>() + s * rows * cols, rows, cols};
}

// What the scaling measures (it takes absolute values): the input itself, or for a complex run
// |re| + |im| rounded up.
struct Magnitudes {
  Matrix<double> owned;
  MatrixView<double> view;
};
Magnitudes magnitudes(const Tensor& x, size_t parts, size_t rows, size_t cols);

}  // namespace ozref::schemes::ozaki2
