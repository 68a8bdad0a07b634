// GEMMul8 v2.0.14's own stages (one class per file of its name): scale.cpp, residues.cpp,
// crt.cpp, unscale.cpp. The others come from the Ozaki-II pipeline where GEMMul8's arithmetic is
// the same (scheme.cpp lists the order): bound (accurate mode), truncate, gemm, reduce.
#pragma once
#include "schemes/gemmul8/setup.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes::gemmul8 {

// Each line's shift by GEMMul8's formulas (shifts.hpp): a function of the inputs once __log2f is
// fixed; its contract, that the shift is the formula's for a log2 inside the approximation's
// window, holds for any conforming __log2f.
class Scale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "scale";
  std::string_view name() const override { return kName; }
};

// trunc_scalbn + ModUnroll: the truncated integers in GEMMul8's integer width, then their
// balanced residues.
class Residues final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "residues";
  std::string_view name() const override { return kName; }
};

// inverse_scaling's reconstruction (crt_tables.hpp), before the scalbn.
class Crt final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "crt";
  std::string_view name() const override { return kName; }
};

// C = scalbn(crt, sftA_i + sftB_j).
class Unscale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "unscale";
  std::string_view name() const override { return kName; }
};

}  // namespace ozref::schemes::gemmul8
