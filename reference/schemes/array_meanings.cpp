#include "schemes/array_meanings.hpp"

#include <map>

namespace ozref::schemes {
namespace {

const std::map<std::string, std::string, std::less<>>& ozaki2_meanings() {
  static const std::map<std::string, std::string, std::less<>> m = {
      {"input.a", "A, row-major (complex runs: re, then im)"},
      {"input.b", "B, row-major (complex runs: re, then im)"},
      {"bound.row_exp", "accurate scaling: row i's exponent u_i of the bound GEMM's operand |A|'"},
      {"bound.col_exp", "accurate scaling: column j's exponent u_j of |B|'"},
      {"bound.a", "|A|' = ceil(|A[i, k]| 2^u_i), small non-negative integers"},
      {"bound.b", "|B|' by columns: b[j, k] = ceil(|B[k, j]| 2^u_j)"},
      {"bound.c", "C_hi = |A|' |B|', the raw low-precision GEMM output"},
      {"scale.row_shift", "s_i: A's row i is scaled by 2^s_i (a free choice, checked through truncate's CRT bound)"},
      {"scale.col_shift", "t_j: B's column j is scaled by 2^t_j (a free choice)"},
      {"scale.bits_eff", "rare: the effective bits of the rounded operands"},
      {"truncate.a", "A'[i, k] = trunc(A[i, k] 2^s_i), integers held exactly in doubles"},
      {"truncate.b", "B'[k, j] = trunc(2^t_j B[k, j])"},
      {"round.a", "rare: A~ = nearest-even(A 2^s)"},
      {"round.b", "rare: B~ = nearest-even(2^t B)"},
      {"residues.a", "a[t, i, k]: the balanced residue of A'[i, k] modulo modulus t, in [-floor(p/2), ceil(p/2) - 1]"},
      {"residues.b", "b[t, j, k] (by columns): the balanced residue of B'[k, j] modulo modulus t"},
      {"split.a", "the limbs of each residue of A, modulus after modulus"},
      {"split.b", "the limbs of each residue of B (by columns), modulus after modulus"},
      {"gemm.c", "c[t, i, j] = sum_k a[t, i, k] b[t, j, k], the raw low-precision GEMM output of modulus t (exact: no overflow); with kblock, c[t, b, i, j] sums K-block b's k only"},
      {"reduce.c", "c[t, i, j]: gemm.c (with kblock: the sum of its K-blocks) reduced to its balanced residue modulo modulus t"},
      {"recombine.c", "c[t, i, j]: the residue modulo modulus t of the product, from its GEMMs' outputs"},
      {"correction.c", "rare: the two correction GEMMs' outputs"},
      {"complex.c", "c[t, part, i, j]: Re, then Im, of the complex product's residue modulo modulus t"},
      {"crt.c", "C'[i, j] in (-P/2, P/2], congruent to every residue: W 64-bit words, two's complement, least significant first"},
      {"crt.hi", "C' as the unevaluated double-double hi + lo: hi"},
      {"crt.lo", "C' as the unevaluated double-double hi + lo: lo"},
      {"unscale.c", "C[i, j] = C'[i, j] 2^-(s_i + t_j) rounded to FP64 (nearest even)"},
  };
  return m;
}

bool in_ozaki2_family(std::string_view scheme) { return scheme.starts_with("ozaki2-") || scheme == "rare" || scheme.starts_with("gemmul8@"); }

}  // namespace

std::string array_meaning(std::string_view scheme, std::string_view stage, std::string_view array) {
  if (!in_ozaki2_family(scheme)) return "";
  const auto it = ozaki2_meanings().find(std::string(stage) + "." + std::string(array));
  return it == ozaki2_meanings().end() ? "" : it->second;
}

}  // namespace ozref::schemes
