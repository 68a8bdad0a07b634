// gemm: the low-precision GEMMs of each modulus through the MMA model of the instruction, modulus by
// modulus: int8 and rare multiply the residue planes themselves, fp8 and fp4 their limb matrices
// (each modulus's terms, modular_product.hpp). Outputs are the raw INT32 or FP32 patterns, rows
// (modulus, plane product, term, K-block): with --kblock (ozaki2-int8) each term is one GEMM per
// block of K, whose sum reduce takes.
#include <algorithm>

#include "schemes/ozaki2/stages.hpp"
#include "schemes/common/lowp_operands.hpp"

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

// Columns k0 .. k0 + depth - 1 of `rows` lines of length k: one K-block's operand, contiguous as
// run_into takes it. The whole operand (one block) is used in place.
template <typename T>
const T* kblock_operand(const Setup& s, const void* whole, size_t rows, size_t b, std::vector<T>& copy) {
  const T* x = static_cast<const T*>(whole);
  if (s.kblocks == 1) return x;
  const size_t k0 = b * s.kblock, depth = s.kblock_depth(b);
  copy.resize(rows * depth);
  for (size_t r = 0; r < rows; ++r) std::copy_n(x + r * s.k + k0, depth, copy.data() + r * depth);
  return copy.data();
}

// GEMM (q, g, b) of modulus t, run (`c` null) or checked against `c`.
template <typename T>
void gemm_block(const Setup& s, const Operands& x, size_t b, uint32_t* out, const uint32_t* c, const std::string& what, StageReport* report,
                ViolationKey at) {
  std::vector<T> ca, cb;
  const T *a = kblock_operand<T>(s, x.a, s.m, b, ca), *bb = kblock_operand<T>(s, x.b, s.n, b, cb);
  const size_t mn = s.m * s.n, depth = s.kblock_depth(b);
  if (!c) return s.lowp.run_into(s.m, s.n, depth, a, bb, true, 0, std::span<uint32_t>(out, mn));
  check_lowp_gemm(s.lowp, s.m, s.n, depth, a, bb, true, std::span<const uint32_t>(c, mn), "gemm.c", what, *report, s.o.block, at);
}

void each_gemm(const Setup& s, const Arrays& in, size_t t, uint32_t* out, const uint32_t* c, StageReport* report) {
  const size_t terms = s.products[t]->terms().size(), mn = s.m * s.n;
  for (size_t q = 0; q < s.Q; ++q)
    for (size_t g = 0; g < terms; ++g) {
      const Operands x = operands(s, in, t, q, g);
      for (size_t b = 0; b < s.kblocks; ++b) {
        const size_t row = (q * terms + g) * s.kblocks + b;
        const std::string what = c ? label(s, t, q, g) + (s.kblocks > 1 ? ", K-block " + std::to_string(b) : "") : "";
        const ViolationKey at{t, row, 0};
        uint32_t* to = out ? out + row * mn : nullptr;  // one of the two is null: no offset on it
        const uint32_t* held = c ? c + row * mn : nullptr;
        if (x.wide) gemm_block<int16_t>(s, x, b, to, held, what, report, at);
        else gemm_block<int8_t>(s, x, b, to, held, what, report, at);
      }
    }
}

}  // namespace

std::vector<ArrayRef> Gemm::inputs() const {
  if (s_->int8) return {{Residues::kName, "a"}, {Residues::kName, "b"}};
  return {{Split::kName, "a"}, {Split::kName, "b"}};
}

std::vector<ArraySpec> Gemm::outputs() const {
  const Setup& s = *s_;
  Axis gemms{"G", s.term_base[s.N] * s.Q};  // each row labelled as its GEMM's violations name it
  for (size_t t = 0; t < s.N; ++t)
    for (size_t q = 0; q < s.Q; ++q)
      for (size_t g = 0; g < s.products[t]->terms().size(); ++g) gemms.labels.push_back(label(s, t, q, g));
  return {{"c", s.gemm_dtype(), {gemms, s.kblocks_axis(), {"m", s.m}, {"n", s.n}}, term_batches(s)}};
}

void Gemm::compute(const Arrays& in, Arrays& out, size_t t) const {
  each_gemm(*s_, in, t, out.get(ref("c")).batch<uint32_t>(t), nullptr, nullptr);
}

// Contract (full): every output the exact integer product of its operands (its K-block's); the
// notes count the wrong elements of each GEMM (an accumulator that is not exact for these sums).
void Gemm::verify(const Arrays& in, const Arrays& out, size_t t, Verify, StageReport& report) const {
  each_gemm(*s_, in, t, nullptr, out.get(ref("c")).batch<uint32_t>(t), &report);
}

std::optional<GemmElement> Gemm::gemm_element(const Arrays& in, const Arrays&, std::string_view array, size_t flat) const {
  const Setup& s = *s_;
  if (array != "c") return std::nullopt;
  const size_t mn = s.m * s.n, row = flat / mn / s.kblocks, b = flat / mn % s.kblocks, i = flat % mn / s.n, j = flat % s.n;
  size_t t = 0;
  while (s.term_base[t + 1] * s.Q <= row) ++t;
  const size_t terms = s.products[t]->terms().size(), within = row - s.term_base[t] * s.Q;
  const Operands x = operands(s, in, t, within / terms, within % terms);
  const size_t at = b * s.kblock, depth = s.kblock_depth(b);
  if (x.wide)
    return gemm_operands(s.lowp, static_cast<const int16_t*>(x.a) + i * s.k + at, 1, static_cast<const int16_t*>(x.b) + j * s.k + at, 1, depth);
  return gemm_operands(s.lowp, static_cast<const int8_t*>(x.a) + i * s.k + at, 1, static_cast<const int8_t*>(x.b) + j * s.k + at, 1, depth);
}

}  // namespace ozref::schemes::ozaki2
