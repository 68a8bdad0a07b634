// gemm: the nine FP4 GEMMs A_i B_j of the digit planes (i, j = 0..2, i outer) through the MMA model,
// FP32 accumulation.
#include "schemes/int8_on_fp4/stages.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::int8_on_fp4 {

std::vector<ArrayRef> Gemm::inputs() const { return {{Limbs::kName, "a"}, {Limbs::kName, "b"}}; }

std::vector<ArraySpec> Gemm::outputs() const {
  return {{"c", DType::F4, {{"9", kLimbs * kLimbs}, {"m", s_->m}, {"n", s_->n}}, {}}};
}

void Gemm::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const int8_t *la = in.data<int8_t>({Limbs::kName, "a"}), *lb = in.data<int8_t>({Limbs::kName, "b"});
  uint32_t* c = out.data<uint32_t>(ref("c"));
  for (size_t g = 0; g < kLimbs * kLimbs; ++g)
    s.lowp.run_into(s.m, s.n, s.k, &la[g / kLimbs * s.m * s.k], &lb[g % kLimbs * s.k * s.n], false, 0,
                    std::span<uint32_t>(c + g * s.m * s.n, s.m * s.n));
}

// Contract (full): each output the exact integer product of its digit planes.
void Gemm::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const int8_t *la = in.data<int8_t>({Limbs::kName, "a"}), *lb = in.data<int8_t>({Limbs::kName, "b"});
  const uint32_t* c = out.data<uint32_t>(ref("c"));
  for (size_t g = 0; g < kLimbs * kLimbs; ++g)
    check_lowp_gemm(s.lowp, s.m, s.n, s.k, &la[g / kLimbs * s.m * s.k], &lb[g % kLimbs * s.k * s.n], false,
                    std::span<const uint32_t>(c + g * s.m * s.n, s.m * s.n),
                    "gemm.c", "limbs A_" + std::to_string(g / kLimbs) + " B_" + std::to_string(g % kLimbs), report);
}

std::optional<GemmElement> Gemm::gemm_element(const Arrays& in, const Arrays&, std::string_view array, size_t flat) const {
  const Setup& s = *s_;
  if (array != "c") return std::nullopt;
  const size_t g = flat / (s.m * s.n), i = flat % (s.m * s.n) / s.n, j = flat % s.n;
  return gemm_operands(s.lowp, &in.data<int8_t>({Limbs::kName, "a"})[g / kLimbs * s.m * s.k + i * s.k], 1,
                       &in.data<int8_t>({Limbs::kName, "b"})[g % kLimbs * s.k * s.n + j], s.n, s.k);
}

}  // namespace ozref::schemes::int8_on_fp4
