// split (fp8, fp4): each residue written as the limbs its modulus's GEMMs multiply
// (modular_product.hpp), modulus by modulus: rows (modulus, limb, plane) of the limb matrices,
// A's by rows and B's by columns as the residues.
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// Modulus t's limbs are rows limb_base[t] .. limb_base[t + 1] - 1 of the leading axis (each row
// holds the P planes of one limb).
std::vector<size_t> limb_batches(const Setup& s) { return s.limb_base; }

// The limbs of modulus t's residues of one side (count elements per plane) into its batch.
template <typename T>
void split_side(const Setup& s, size_t t, const T* residues, size_t count, int8_t* limbs) {
  const ModularProduct& mp = *s.products[t];
  const size_t P = s.P, L = mp.limbs();
#pragma omp parallel for schedule(static)
  for (size_t v = 0; v < P * count; ++v) {
    const size_t pl = v / count, e = v % count;
    int8_t l[4];
    mp.split(residues[(t * P + pl) * count + e], l);
    for (size_t q = 0; q < L; ++q) limbs[(q * P + pl) * count + e] = l[q];
  }
}

// One side's limbs of modulus t: A's (lines = m rows) or B's (columns: lines = n columns), each
// line k long; in a distributed run's block ordered by their place in the whole A' and B', and
// checked only by the rank that checks that side's lines (BlockFrame).
template <typename T>
void check_side(const Setup& s, size_t t, const T* residues, bool columns, const int8_t* limbs, StageReport& report) {
  const BlockFrame& f = s.o.block;
  if (!(columns ? f.checks_b : f.checks_a)) return;
  const ModularProduct& mp = *s.products[t];
  const size_t P = s.P, L = mp.limbs(), lines = columns ? s.n : s.m, count = lines * s.k;
  const std::string name = columns ? "B" : "A";
  parallel_check(P * count, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t v = v0; v < v1; ++v) {
      const size_t pl = v / count, e = v % count;
      const ViolationKey at{t, columns ? 1u : 0u, f.line_element(pl, columns, e / s.k, e % s.k, s.k, lines)};
      int8_t l[4];
      for (size_t q = 0; q < L; ++q) {
        l[q] = limbs[(q * P + pl) * count + e];
        if (!s.lowp.representable(l[q]))
          part.violate(name + " limb " + std::to_string(l[q]) + " has no exact " + to_string(s.family.format) + " encoding", at);
      }
      const std::string why = mp.check_split(residues[(t * P + pl) * count + e], l);
      if (!why.empty()) part.violate(name + " " + mp.name() + ": " + why, at);
    }
  });
}

}  // namespace

std::vector<ArrayRef> Split::inputs() const { return {{Residues::kName, "a"}, {Residues::kName, "b"}}; }

std::vector<ArraySpec> Split::outputs() const {
  const Setup& s = *s_;
  const Axis rows{"L", s.limb_base[s.N]}, planes = s.planes_axis();
  return {{"a", DType::I1, {rows, planes, {"m", s.m}, {"k", s.k}}, limb_batches(s)},
          {"b", DType::I1, {rows, planes, {"n", s.n}, {"k", s.k}}, limb_batches(s)}};
}

// The limbs go into the GEMMs: only values their instruction encodes.
std::optional<AdmittedValues> Split::admitted(std::string_view) const { return encodable(s_->lowp); }

void Split::compute(const Arrays& in, Arrays& out, size_t t) const {
  const Setup& s = *s_;
  const Tensor &ra = in.get({Residues::kName, "a"}), &rb = in.get({Residues::kName, "b"});
  int8_t *la = out.get(ref("a")).batch<int8_t>(t), *lb = out.get(ref("b")).batch<int8_t>(t);
  if (s.narrow) {
    split_side(s, t, ra.as<int8_t>(), s.m * s.k, la);
    split_side(s, t, rb.as<int8_t>(), s.n * s.k, lb);
  } else {
    split_side(s, t, ra.as<int16_t>(), s.m * s.k, la);
    split_side(s, t, rb.as<int16_t>(), s.n * s.k, lb);
  }
}

// Contract (cheap): the limbs represent the residue and lie in range, each with an exact encoding.
// A distributed run's block: see check_side.
void Split::verify(const Arrays& in, const Arrays& out, size_t t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const Tensor &ra = in.get({Residues::kName, "a"}), &rb = in.get({Residues::kName, "b"});
  const int8_t *la = out.get(ref("a")).batch<int8_t>(t), *lb = out.get(ref("b")).batch<int8_t>(t);
  if (s.narrow) {
    check_side(s, t, ra.as<int8_t>(), false, la, report);
    check_side(s, t, rb.as<int8_t>(), true, lb, report);
  } else {
    check_side(s, t, ra.as<int16_t>(), false, la, report);
    check_side(s, t, rb.as<int16_t>(), true, lb, report);
  }
}

}  // namespace ozref::schemes::ozaki2
