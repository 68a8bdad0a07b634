// gemm: the kept slice products A_t B_u (t + u <= p - 1) through the MMA model, in pair order;
// --accumulate fused (int8): one GEMM per d = t + u over the concatenated slices
// [A_0 .. A_d] [B_d; ..; B_0], the INT32 accumulation of a one-kernel implementation (EmuGEMM-I).
#include "schemes/ozaki1/stages.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::ozaki1 {
namespace {

// The operands of output q: A (m x depth) and B (depth x n), row-major, and their GEMM.
struct Operands {
  std::vector<int8_t> a_cat, b_cat;  // fused: the concatenated slices
  const int8_t *a = nullptr, *b = nullptr;
  size_t depth = 0;
  const LowpGemm* gemm = nullptr;
  std::string label;
};

Operands operands(const Setup& s, const Arrays& in, size_t q) {
  const int8_t *as = in.data<int8_t>({Slices::kName, "a"}), *bs = in.data<int8_t>({Slices::kName, "b"});
  const size_t m = s.m, k = s.k, n = s.n;
  Operands x;
  if (!s.fused) {
    const auto [t, u] = s.pairs[q];
    x.a = &as[t * m * k], x.b = &bs[u * k * n], x.depth = k, x.gemm = &s.gemm_for(t, u);
    x.label = "slice pair (" + std::to_string(t) + "," + std::to_string(u) + ")";
    return x;
  }
  const size_t d = q;
  x.a_cat.resize(m * (d + 1) * k), x.b_cat.resize((d + 1) * k * n);
  for (size_t t = 0; t <= d && k > 0; ++t) {  // an empty product places nothing (and indexes no empty array)
    for (size_t i = 0; i < m; ++i) std::copy_n(&as[t * m * k + i * k], k, &x.a_cat[i * (d + 1) * k + t * k]);
    if (n > 0) std::copy_n(&bs[(d - t) * k * n], k * n, &x.b_cat[t * k * n]);
  }
  x.a = x.a_cat.data(), x.b = x.b_cat.data(), x.depth = (d + 1) * k, x.gemm = &s.lead();
  x.label = "fused slice products t + u = " + std::to_string(d);
  return x;
}

}  // namespace

std::vector<ArrayRef> Gemm::inputs() const { return {{Slices::kName, "a"}, {Slices::kName, "b"}}; }

std::vector<ArraySpec> Gemm::outputs() const {
  const Setup& s = *s_;
  const DType t = s.sl.format() == LowpFormat::Int8 ? DType::I4 : DType::F4;
  return {{"c", t, {{s.fused ? "p" : "pairs", s.outputs()}, {"m", s.m}, {"n", s.n}}, {}}};
}

void Gemm::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  uint32_t* c = out.data<uint32_t>(ref("c"));
  for (size_t q = 0; q < s.outputs(); ++q) {
    const Operands x = operands(s, in, q);
    x.gemm->run_into(s.m, s.n, x.depth, x.a, x.b, false, 0, std::span<uint32_t>(c + q * s.m * s.n, s.m * s.n));
  }
}

// Contract (full): each output the exact integer product of its operands.
void Gemm::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const uint32_t* c = out.data<uint32_t>(ref("c"));
  for (size_t q = 0; q < s.outputs(); ++q) {
    const Operands x = operands(s, in, q);
    check_lowp_gemm(*x.gemm, s.m, s.n, x.depth, x.a, x.b, false, std::span<const uint32_t>(c + q * s.m * s.n, s.m * s.n), "gemm.c", x.label, report);
  }
}

std::optional<GemmElement> Gemm::gemm_element(const Arrays& in, const Arrays&, std::string_view array, size_t flat) const {
  const Setup& s = *s_;
  if (array != "c") return std::nullopt;
  const size_t q = flat / (s.m * s.n), i = flat % (s.m * s.n) / s.n, j = flat % s.n;
  const Operands x = operands(s, in, q);
  return gemm_operands(*x.gemm, x.a + i * x.depth, 1, x.b + j, s.n, x.depth);
}

}  // namespace ozref::schemes::ozaki1
