// The stages of the Ozaki-II pipeline (scheme.hpp lists them; docs/schemes.md has each contract
// and array). One class per stage, each in the file of its name: bound.cpp, scale.cpp,
// truncate.cpp, residues.cpp, split.cpp, gemm.cpp, reduce.cpp (reduce and recombine),
// complex.cpp, crt.cpp, unscale.cpp; rare's own: rare_scale.cpp, round.cpp, correction.cpp.
#pragma once
#include "schemes/ozaki2/setup.hpp"

namespace ozref::schemes::ozaki2 {

// accurate mode: the bound GEMM C_hi = |A|' |B|' of the magnitudes scaled and rounded up.
class Bound final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "bound";
  std::string_view name() const override { return kName; }
  std::optional<AdmittedValues> admitted(std::string_view array) const override;
  size_t gemms() const override { return 1; }
  std::optional<GemmElement> gemm_element(const Arrays& in, const Arrays& out, std::string_view array, size_t flat) const override;
};

// The row and column shifts (fast, accurate, gemmul8-fast): a free choice, checked through
// truncate's CRT bound.
class Scale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "scale";
  std::string_view name() const override { return kName; }
  StageKind kind() const override { return StageKind::Choice; }
  bool has_contract() const override { return false; }  // checked where used: truncate
};

class Truncate final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "truncate";
  std::string_view name() const override { return kName; }
};

class Residues final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "residues";
  std::string_view name() const override { return kName; }
};

// fp8, fp4: each residue as its modulus's limbs, modulus by modulus.
class Split final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "split";
  std::string_view name() const override { return kName; }
  std::optional<AdmittedValues> admitted(std::string_view array) const override;
  size_t batches() const override { return s_->N; }
};

class Gemm final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "gemm";
  std::string_view name() const override { return kName; }
  size_t batches() const override { return s_->N; }
  Verify checked_from() const override { return Verify::Full; }
  size_t gemms() const override { return s_->term_base[s_->N] * s_->Q * s_->kblocks; }
  std::optional<GemmElement> gemm_element(const Arrays& in, const Arrays& out, std::string_view array, size_t flat) const override;
};

// reduce (int8, rare: one GEMM output per residue) and recombine (fp8, fp4: a weighted sum of
// several): the balanced residue of each plane product.
class Reduce final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kReduce = "reduce", kRecombine = "recombine";
  std::string_view name() const override { return s_->int8 ? kReduce : kRecombine; }
  size_t batches() const override { return s_->N; }
};

// The 3M combination of a complex run.
class Complex final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "complex";
  std::string_view name() const override { return kName; }
};

class CrtStage final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "crt";
  std::string_view name() const override { return kName; }
  StageKind kind() const override;  // dd: Rounding (its sums' order is the kernel's choice)
};

class Unscale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "unscale";
  std::string_view name() const override { return kName; }
};

// rare (fp64-emu): its scaling with one global gain, its nearest-even conversion with the two
// correction planes, and the two correction GEMMs.
class RareScale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "scale";
  std::string_view name() const override { return kName; }
  std::optional<AdmittedValues> admitted(std::string_view array) const override;
  StageKind kind() const override { return StageKind::Choice; }
  bool has_contract() const override { return false; }  // checked where used: round
};

class Round final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "round";
  std::string_view name() const override { return kName; }
};

class Correction final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "correction";
  std::string_view name() const override { return kName; }
  Verify checked_from() const override { return Verify::Full; }
  size_t gemms() const override { return 2; }
  std::optional<GemmElement> gemm_element(const Arrays& in, const Arrays& out, std::string_view array, size_t flat) const override;
};

// The stage that produced the residues of the plane products (reduce or recombine, or complex).
ArrayRef reduced_products(const Setup& s);
// The integer stage before the residues: truncate, or round for rare.
std::string_view integers_stage(const Setup& s);

}  // namespace ozref::schemes::ozaki2
