// correction (rare): fp64-emu's two correction GEMMs hi7_A q7_B and q7_A hi7_B (INT8, exact:
// K 127^2 < 2^31), the first-order rounding error of round, added by unscale.
#include "schemes/ozaki2/stages.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// GEMM e's operands (A's m x k, B's k x n by rows) and its label.
struct Product {
  const char *a, *b, *label;
};
constexpr Product kProducts[2] = {{"a_hi7", "b_q7", "hi7_A q7_B"}, {"a_q7", "b_hi7", "q7_A hi7_B"}};

}  // namespace

std::vector<ArrayRef> Correction::inputs() const {
  return {{Round::kName, "a_hi7"}, {Round::kName, "a_q7"}, {Round::kName, "b_hi7"}, {Round::kName, "b_q7"}};
}

std::vector<ArraySpec> Correction::outputs() const {
  return {{"c", DType::I4, {{"2", 2}, {"m", s_->m}, {"n", s_->n}}, {}}};
}

void Correction::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  uint32_t* c = out.data<uint32_t>(ref("c"));
  for (size_t e = 0; e < 2; ++e)
    s.lowp.run_into(s.m, s.n, s.k, in.data<int8_t>({Round::kName, kProducts[e].a}), in.data<int8_t>({Round::kName, kProducts[e].b}),
                    false, 0, std::span<uint32_t>(c + e * s.m * s.n, s.m * s.n));
}

// Contract (full): both GEMMs exact.
void Correction::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const uint32_t* c = out.data<uint32_t>(ref("c"));
  for (size_t e = 0; e < 2; ++e)
    check_lowp_gemm(s.lowp, s.m, s.n, s.k, in.data<int8_t>({Round::kName, kProducts[e].a}), in.data<int8_t>({Round::kName, kProducts[e].b}),
                    false, std::span<const uint32_t>(c + e * s.m * s.n, s.m * s.n), "correction.c", kProducts[e].label, report);
}

std::optional<GemmElement> Correction::gemm_element(const Arrays& in, const Arrays&, std::string_view array, size_t flat) const {
  const Setup& s = *s_;
  if (array != "c") return std::nullopt;
  const size_t e = flat / (s.m * s.n), i = flat % (s.m * s.n) / s.n, j = flat % s.n;
  return gemm_operands(s.lowp, in.data<int8_t>({Round::kName, kProducts[e].a}) + i * s.k, 1,
                       in.data<int8_t>({Round::kName, kProducts[e].b}) + j, s.n, s.k);
}

}  // namespace ozref::schemes::ozaki2
