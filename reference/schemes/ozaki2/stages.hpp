// The stages of the Ozaki-II pipeline (scheme.hpp lists them), shared by the real run and the
// complex (3M) run: a real run has one matrix per side, one residue plane and one plane product per
// modulus; a complex run has the real and imaginary parts, the planes re, im and re + im (formed
// in residue arithmetic), the three plane products re*re, im*im, sum*sum and a 3M combination.
#pragma once
#include <memory>
#include <utility>
#include <vector>

#include "common/buffer.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/ozaki2/scheme.hpp"

namespace ozref::schemes::ozaki2 {

struct Context {
  Context(const Ozaki2Options& options, size_t m, size_t k, size_t n, SchemeResult& r, TraceWriter* trace);
  Ozaki2Options o;
  const Ozaki2Family& family;
  LowpGemm lowp;
  size_t N, m, k, n;
  std::vector<std::unique_ptr<ModularProduct>> products;
  std::vector<int64_t> moduli;
  Crt crt;
  bool cheap, full, int8, rare;
  int threads;
  SchemeResult& r;
  TraceWriter* trace;
};

// scale and truncate (rare: round): the integer matrices, one or two per side (the runs release
// them once their residues exist), and the shifts.
struct Converted {
  std::vector<Matrix<double>> a, b;
  std::vector<int> row_shift, col_shift;
  int bits_eff = 0;                         // rare
  std::vector<int8_t> hi_a, q_a, hi_b, q_b;  // rare's correction planes
};
Converted convert(Context& c, const std::vector<const Matrix<double>*>& a, const std::vector<const Matrix<double>*>& b);

// residues: A's (N, planes, m, k) and B's by columns, (N, planes, n, k) (the layout the GEMMs
// take; a trace writes B's as (N, planes, k, n)); planes 1 (real) or 3 (re, im, re + im). Held as
// int8_t when every modulus is at most 256 (int8, rare, fp4: half the memory, and INT8 GEMMs
// take them as they are), else as int16_t.
struct Planes {
  size_t count = 1;
  bool narrow = false;
  Buffer<int8_t> a8, b8;
  Buffer<int16_t> a16, b16;
  // f(a, b) on the planes in use.
  template <typename F>
  decltype(auto) visit(F&& f) const {
    return narrow ? f(a8, b8) : f(a16, b16);
  }
};
Planes residues(Context& c, const Converted& x);

// split, gemm and reduce/recombine: the residue of each plane product (a plane, b plane) modulo
// every modulus, (N, products, m, n). rare adds its two correction GEMMs into `correction`.
Buffer<int16_t> modular_products(Context& c, const Planes& p, const std::vector<std::pair<size_t, size_t>>& pairs,
                                      const Converted& x, std::vector<int64_t>& correction);

// complex: the 3M combination re = T1 - T2, im = T3 - T1 - T2 of the products (N, 3, m, n) into
// (N, 2, m, n).
Buffer<int16_t> combine_3m(Context& c, const Planes& p, const Buffer<int16_t>& products);

// crt and unscale for each of `outputs` residue sets (N, outputs, m, n) into `out`.
void reconstruct(Context& c, const Buffer<int16_t>& residues, size_t outputs, const Converted& x,
                 const std::vector<int64_t>& correction, std::vector<Matrix<double>>& out);

}  // namespace ozref::schemes::ozaki2
