// The stages of int8-on-fp4 (scheme.hpp lists them), one class per stage, each in the file of its
// name.
#pragma once
#include <memory>

#include "schemes/common/lowp_gemm.hpp"
#include "schemes/int8_on_fp4/scheme.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes::int8_on_fp4 {

inline constexpr size_t kLimbs = 3;  // |x| <= 128 < X_3 = 732

struct Setup {
  Setup(const Int8OnFp4Options& o, size_t rows, size_t cols, size_t depth)
      : lowp(scheme_instruction(o.arch, LowpFormat::E2M1, o.op, "int8-on-fp4"), LowpFormat::E2M1), m(rows), n(cols), k(depth) {}
  LowpGemm lowp;
  size_t m, n, k;
};

class Limbs final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "limbs";
  std::string_view name() const override { return kName; }
  std::optional<AdmittedValues> admitted(std::string_view array) const override;
};

class Gemm final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "gemm";
  std::string_view name() const override { return kName; }
  Verify checked_from() const override { return Verify::Full; }
  size_t gemms() const override { return kLimbs * kLimbs; }
  std::optional<GemmElement> gemm_element(const Arrays& in, const Arrays& out, std::string_view array, size_t flat) const override;
};

class Combine final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "combine";
  std::string_view name() const override { return kName; }
};

}  // namespace ozref::schemes::int8_on_fp4
