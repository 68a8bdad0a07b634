// The stages of the Ozaki-I pipeline (scheme.hpp lists them; docs/schemes.md has each contract and
// array), one class per stage, each in the file of its name.
#pragma once
#include "schemes/ozaki1/setup.hpp"

namespace ozref::schemes::ozaki1 {

// A complex run (4M): [A_re -A_im; A_im A_re] and [B_re; B_im], whose real product stacks
// Re C over Im C.
class Stack final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "stack";
  std::string_view name() const override { return kName; }
};

// The row and column shifts of the slicing: a free choice, checked through the slices' ranges.
class Scale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "scale";
  std::string_view name() const override { return kName; }
  StageKind kind() const override { return StageKind::Choice; }
  bool has_contract() const override { return false; }  // checked where used: slices
};

class Slices final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "slices";
  std::string_view name() const override { return kName; }
  std::optional<AdmittedValues> admitted(std::string_view array) const override;
};

class Gemm final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "gemm";
  std::string_view name() const override { return kName; }
  Verify checked_from() const override { return Verify::Full; }
  size_t gemms() const override { return s_->pairs.size(); }
  std::optional<GemmElement> gemm_element(const Arrays& in, const Arrays& out, std::string_view array, size_t flat) const override;
};

class Accumulate final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "accumulate";
  std::string_view name() const override { return kName; }
  bool has_contract() const override { return s_->exact; }
};

class Unscale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "unscale";
  std::string_view name() const override { return kName; }
  bool has_contract() const override { return s_->exact; }
};

}  // namespace ozref::schemes::ozaki1
