// The stages of cublas-fixedpoint@13.1 (scheme.hpp lists them; docs/schemes.md has each contract
// and array), one class per stage, each in the file of its name. Every stage is a function of its
// inputs: cuBLAS's scales, digits, sums and FP64 order are all fixed, so a subject must match the
// CPU bit for bit.
#pragma once
#include "schemes/cublas_fixedpoint/setup.hpp"
#include "schemes/pipeline/stage.hpp"

namespace ozref::schemes::cublas_fixedpoint {

// Per K-block, each row of A's and column of B's scale exponent e: the smallest whose top digit
// holds the line's largest magnitude, max|x| <= 127 2^(e-7), and at least -1022; 0 for an all-zero line.
class Scale final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "scale";
  std::string_view name() const override { return kName; }
};

// X = trunc(x 2^(bits - e)) of each element as p balanced base-256 digits, top first.
class Slice final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "slice";
  std::string_view name() const override { return kName; }
};

// Per K-block and anti-diagonal d < p: S_d = sum over the block's k and t <= d of dA_t dB_(d-t),
// one INT8 GEMM over the concatenated digits (exact INT32 sums on the sm_90 model).
class Gemm final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "gemm";
  std::string_view name() const override { return kName; }
  Verify checked_from() const override { return Verify::Full; }
  size_t gemms() const override { return s_->p * (s_->p + 1) / 2; }  // m x k x n products: the blocks partition K
  std::optional<GemmElement> gemm_element(const Arrays& in, const Arrays& out, std::string_view array, size_t flat) const override;
};

// C in FP64: per block v = 0, v += S_d 256^(2p-2-d) 2^(-2 bits) for d = 0..p-1, scaled by 2^(eA+eB)
// (one rounding); then C = 0, C += that block after block, each addition rounded to nearest even.
class Accumulate final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "accumulate";
  std::string_view name() const override { return kName; }
  Verify checked_from() const override { return Verify::Full; }
};

// Where DYNAMIC's count exceeds its max: native FP64, C = 0 + the parts of K in order, each part a
// chain of FMAs from 0 (fallback.cpp has the parts).
class Fallback final : public SchemeStage<Setup> {
  OZREF_STAGE_MEMBERS
  static constexpr std::string_view kName = "fallback";
  std::string_view name() const override { return kName; }
  Verify checked_from() const override { return Verify::Full; }
};

}  // namespace ozref::schemes::cublas_fixedpoint
