// gemm: per K-block and anti-diagonal d = 0..p-1 (only the first p: the digit products with
// t + u <= p - 1), one INT8 GEMM over the concatenated digits [A_0 .. A_d] [B_d; ..; B_0] of the
// block, so that S_d = sum_k sum_(t+u=d) dA_t dB_u is one exact INT32 sum per element (|S_d| <=
// p kb 2^14 < 2^31: the scheme bounds p kb).
#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::cublas_fixedpoint {
namespace {

// GEMM q = block * p + d: A (m x depth) and B (depth x n), row-major.
struct Operands {
  std::vector<int8_t> a, b;
  size_t depth = 0;
  std::string label;
};

Operands operands(const Setup& s, const Arrays& in, size_t q) {
  const int8_t *da = in.data<int8_t>({Slice::kName, "a"}), *db = in.data<int8_t>({Slice::kName, "b"});
  const size_t block = q / s.p, d = q % s.p, k0 = s.block_begin(block), len = s.block_length(block);
  Operands x;
  x.depth = (d + 1) * len;
  x.a.resize(s.m * x.depth), x.b.resize(x.depth * s.n);
  for (size_t t = 0; t <= d && len > 0; ++t) {  // an empty product places nothing (and indexes no empty array)
    for (size_t i = 0; i < s.m; ++i) std::copy_n(&da[(t * s.m + i) * s.k + k0], len, &x.a[i * x.depth + t * len]);
    if (s.n > 0) std::copy_n(&db[((d - t) * s.k + k0) * s.n], len * s.n, &x.b[t * len * s.n]);
  }
  x.label = "K-block " + std::to_string(block) + ", anti-diagonal " + std::to_string(d);
  return x;
}

}  // namespace

std::vector<ArrayRef> Gemm::inputs() const { return {{Slice::kName, "a"}, {Slice::kName, "b"}}; }

std::vector<ArraySpec> Gemm::outputs() const {
  const Setup& s = *s_;
  return {{"s", DType::I4, {{"blocks", s.blocks}, {"p", s.p}, {"m", s.m}, {"n", s.n}}, {}}};
}

void Gemm::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  uint32_t* c = out.data<uint32_t>(ref("s"));
  for (size_t q = 0; q < s.blocks * s.p; ++q) {
    const Operands x = operands(s, in, q);
    s.gemm.run_into(s.m, s.n, x.depth, x.a.data(), x.b.data(), false, 0, std::span<uint32_t>(c + q * s.m * s.n, s.m * s.n));
  }
}

// Contract (full): each output the exact integer sum of its block's digit products on its
// anti-diagonal.
void Gemm::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const uint32_t* c = out.data<uint32_t>(ref("s"));
  for (size_t q = 0; q < s.blocks * s.p; ++q) {
    const Operands x = operands(s, in, q);
    check_lowp_gemm(s.gemm, s.m, s.n, x.depth, x.a.data(), x.b.data(), false, std::span<const uint32_t>(c + q * s.m * s.n, s.m * s.n), "gemm.s", x.label,
                    report);
  }
}

std::optional<GemmElement> Gemm::gemm_element(const Arrays& in, const Arrays&, std::string_view array, size_t flat) const {
  const Setup& s = *s_;
  if (array != "s") return std::nullopt;
  const size_t q = flat / (s.m * s.n), i = flat % (s.m * s.n) / s.n, j = flat % s.n;
  const Operands x = operands(s, in, q);
  return gemm_operands(s.gemm, x.a.data() + i * x.depth, 1, x.b.data() + j, s.n, x.depth);
}

}  // namespace ozref::schemes::cublas_fixedpoint
