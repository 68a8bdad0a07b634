// gemm: the low-precision GEMMs of each modulus through the MMA model of the instruction, modulus by
// modulus: int8 and rare multiply the residue planes themselves, fp8 and fp4 their limb matrices
// (each modulus's terms, modular_product.hpp). Outputs are the raw INT32 or FP32 patterns, rows
// (modulus, plane product, term).
#include "schemes/ozaki2/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

std::vector<size_t> term_batches(const Setup& s) {
  std::vector<size_t> rows;
  for (size_t t = 0; t <= s.N; ++t) rows.push_back(s.term_base[t] * s.Q);
  return rows;
}

// The operands of GEMM g of plane product q of modulus t: A's (m x k) and B's by columns (n x k).
struct Operands {
  const void* a;
  const void* b;
  bool wide;  // int16 residue planes
};
Operands operands(const Setup& s, const Arrays& in, size_t t, size_t q, size_t g) {
  const ProductTerm& term = s.products[t]->terms()[g];
  const auto [pa, pb] = s.pairs[q];
  const size_t mk = s.m * s.k, nk = s.n * s.k;
  if (!s.int8) {  // limbs: rows (limb, plane) of the modulus's batch
    const int8_t* la = in.get({Split::kName, "a"}).batch<int8_t>(t);
    const int8_t* lb = in.get({Split::kName, "b"}).batch<int8_t>(t);
    return {la + (term.a_limb * s.P + pa) * mk, lb + (term.b_limb * s.P + pb) * nk, false};
  }
  const Tensor &ra = in.get({Residues::kName, "a"}), &rb = in.get({Residues::kName, "b"});
  if (s.narrow) return {ra.as<int8_t>() + (t * s.P + pa) * mk, rb.as<int8_t>() + (t * s.P + pb) * nk, false};
  return {ra.as<int16_t>() + (t * s.P + pa) * mk, rb.as<int16_t>() + (t * s.P + pb) * nk, true};
}

std::string label(const Setup& s, size_t t, size_t q, size_t g) {
  const ProductTerm& term = s.products[t]->terms()[g];
  std::string text = s.modulus_label(t);
  if (s.Q > 1) text += std::string(", product ") + s.plane_name(s.pairs[q].first);
  if (s.int8) return text;  // one GEMM of the residues themselves: no limbs to name
  return text + ", limbs " + std::to_string(term.a_limb) + "x" + std::to_string(term.b_limb);
}

}  // namespace

std::vector<ArrayRef> Gemm::inputs() const {
  if (s_->int8) return {{Residues::kName, "a"}, {Residues::kName, "b"}};
  return {{Split::kName, "a"}, {Split::kName, "b"}};
}

std::vector<ArraySpec> Gemm::outputs() const {
  const Setup& s = *s_;
  return {{"c", s.gemm_dtype(), {{"G", s.term_base[s.N] * s.Q}, {"m", s.m}, {"n", s.n}}, term_batches(s)}};
}

void Gemm::compute(const Arrays& in, Arrays& out, size_t t) const {
  const Setup& s = *s_;
  const size_t terms = s.products[t]->terms().size(), mn = s.m * s.n;
  uint32_t* c = out.get(ref("c")).batch<uint32_t>(t);
  for (size_t q = 0; q < s.Q; ++q)
    for (size_t g = 0; g < terms; ++g) {
      const Operands x = operands(s, in, t, q, g);
      const std::span<uint32_t> d(c + (q * terms + g) * mn, mn);
      if (x.wide) s.lowp.run_into(s.m, s.n, s.k, static_cast<const int16_t*>(x.a), static_cast<const int16_t*>(x.b), true, 0, d);
      else s.lowp.run_into(s.m, s.n, s.k, static_cast<const int8_t*>(x.a), static_cast<const int8_t*>(x.b), true, 0, d);
    }
}

// Contract (full): every output the exact integer product of its operands; the notes count the
// wrong elements of each GEMM (an accumulator that is not exact for these sums).
void Gemm::verify(const Arrays& in, const Arrays& out, size_t t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const size_t terms = s.products[t]->terms().size(), mn = s.m * s.n;
  const uint32_t* c = out.get(ref("c")).batch<uint32_t>(t);
  for (size_t q = 0; q < s.Q; ++q)
    for (size_t g = 0; g < terms; ++g) {
      const Operands x = operands(s, in, t, q, g);
      const std::span<const uint32_t> d(c + (q * terms + g) * mn, mn);
      const ViolationKey at{t, q * terms + g, 0};
      if (x.wide)
        check_lowp_gemm(s.lowp, s.m, s.n, s.k, static_cast<const int16_t*>(x.a), static_cast<const int16_t*>(x.b), true, d, "gemm.c", label(s, t, q, g),
                        report, s.o.block, at);
      else
        check_lowp_gemm(s.lowp, s.m, s.n, s.k, static_cast<const int8_t*>(x.a), static_cast<const int8_t*>(x.b), true, d, "gemm.c", label(s, t, q, g),
                        report, s.o.block, at);
    }
}

std::optional<GemmElement> Gemm::gemm_element(const Arrays& in, const Arrays&, std::string_view array, size_t flat) const {
  const Setup& s = *s_;
  if (array != "c") return std::nullopt;
  const size_t mn = s.m * s.n, row = flat / mn, i = flat % mn / s.n, j = flat % s.n;
  size_t t = 0;
  while (s.term_base[t + 1] * s.Q <= row) ++t;
  const size_t terms = s.products[t]->terms().size(), within = row - s.term_base[t] * s.Q;
  const Operands x = operands(s, in, t, within / terms, within % terms);
  if (x.wide) return gemm_operands(s.lowp, static_cast<const int16_t*>(x.a) + i * s.k, 1, static_cast<const int16_t*>(x.b) + j * s.k, 1, s.k);
  return gemm_operands(s.lowp, static_cast<const int8_t*>(x.a) + i * s.k, 1, static_cast<const int8_t*>(x.b) + j * s.k, 1, s.k);
}

}  // namespace ozref::schemes::ozaki2
