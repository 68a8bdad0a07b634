// What the stages of one gemmul8@2.0.14 run share. The arithmetic that GEMMul8 shares with
// ozref's Ozaki-II INT8 pipeline (same moduli in the same order, the bound GEMM's operands, the
// truncation, the INT8 GEMMs, the Barrett reduction to balanced residues) runs through that
// pipeline's stages and their setup (`base`); GEMMul8's own arithmetic (its shifts, its
// conversion to residues in int32/int64/double, its double-double CRT, its scalbn) through the
// stages of this folder (stages.hpp).
#pragma once
#include <memory>

#include "schemes/gemmul8/crt_tables.hpp"
#include "schemes/gemmul8/log2_model.hpp"
#include "schemes/ozaki2/setup.hpp"

namespace ozref::schemes::gemmul8 {

enum class Mode { Fast, Accurate };
Mode parse_mode(const std::string& name);  // "fast", "accurate"; InputError otherwise
std::string to_string(Mode mode);

struct Setup {
  Setup(Mode mode, size_t moduli, size_t m, size_t n, size_t k);
  Mode mode;
  std::shared_ptr<const ozaki2::Setup> base;
  size_t N, m, n, k;
  float log2p;          // GEMMul8's log2P entry for N moduli
  CrtTables tables;
  const Lg2Recording& lg2;
  // The integer width of GEMMul8's conversion to residues (trunc_scalbn): 32 bits up to 7 moduli,
  // 64 up to 15, a double beyond (0).
  int integer_bits() const { return N <= 7 ? 32 : N <= 15 ? 64 : 0; }
};

}  // namespace ozref::schemes::gemmul8
