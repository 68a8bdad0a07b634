// reduce (int8, rare) and recombine (fp8, fp4): the balanced residue of each plane product from
// its modulus's GEMM outputs (the kernel's Barrett reduction, rare's biased one, or the weighted
// sum of the limb products reduced mod m; modular_product.hpp), modulus by modulus.
#include <algorithm>
#include <string>

#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"

namespace ozref::schemes::ozaki2 {

namespace {

// An ozaki2-int8 kernel's K-blocks (one INT32 GEMM each, weight 1): the balanced residue of their
// exact sum. No kernel's reduction arithmetic is modelled here; the residue is unique.
void reduce_kblocks(const Setup& s, size_t t, const uint32_t* c, int16_t* r) {
  const size_t mn = s.m * s.n;
  const int64_t mod = s.moduli[t];
#pragma omp parallel for schedule(static)
  for (size_t at = 0; at < s.Q * mn; ++at) {
    const size_t q = at / mn, v = at % mn;
    int64_t sum = 0;
    for (size_t b = 0; b < s.kblocks; ++b) sum += static_cast<int32_t>(c[(q * s.kblocks + b) * mn + v]);
    r[at] = static_cast<int16_t>(balanced_residue(sum, mod));
  }
}

}  // namespace

std::vector<ArrayRef> Reduce::inputs() const { return {{Gemm::kName, "c"}}; }

std::vector<ArraySpec> Reduce::outputs() const {
  const Setup& s = *s_;
  return {{"c", DType::I2, {s.moduli_axis(), s.products_axis(), {"m", s.m}, {"n", s.n}}, s.moduli_batches()}};
}

void Reduce::compute(const Arrays& in, Arrays& out, size_t t) const {
  const Setup& s = *s_;
  const uint32_t* c = in.get({Gemm::kName, "c"}).batch<uint32_t>(t);
  int16_t* r = out.get(ref("c")).batch<int16_t>(t);
  if (s.kblocks > 1) return reduce_kblocks(s, t, c, r);
  const ModularProduct& mp = *s.products[t];
  const size_t terms = mp.terms().size(), mn = s.m * s.n;
  constexpr size_t kBlock = 16384;  // elements reduced together, in parallel over blocks
  const size_t blocks = (mn + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) collapse(2)
  for (size_t q = 0; q < s.Q; ++q)
    for (size_t blk = 0; blk < blocks; ++blk) {
      const size_t v0 = blk * kBlock, len = std::min(kBlock, mn - v0);
      const uint32_t* outputs[4];
      for (size_t g = 0; g < terms; ++g) outputs[g] = c + (q * terms + g) * mn + v0;
      mp.combine_all(s.lowp, outputs, len, r + q * mn + v0);
    }
}

namespace {

// One wrong reduced residue, named by the array's own axes, with the expected value and the
// property that failed: "reduce.c[modulus 251, i 2, j 4]: found 121, expected 122, the balanced
// residue of gemm.c = 122 modulo 251 (in [-125, 125]): not congruent to it". `output`: the one GEMM
// output of a single-GEMM modulus (INT8), whose value the message shows; null for several.
std::string reduction_violation(const Setup& s, std::string_view stage, size_t t, size_t q, size_t i, size_t j, bool integral, int64_t sum,
                                const int64_t* output, int64_t value) {
  const int64_t mod = s.moduli[t], low = -(mod / 2), high = (mod - 1) / 2;
  const std::string product = s.Q > 1 ? std::string(", product ") + s.plane_name(s.pairs[q].first) : "";
  const std::string at = std::string(stage) + ".c[modulus " + std::to_string(mod) + product + ", i " + std::to_string(i) + ", j " + std::to_string(j) +
                         "]: found " + std::to_string(value);
  if (!integral) return at + ", but a GEMM output it reduces is not an integer";
  const int64_t expected = balanced_residue(sum, mod);
  const std::string of = output ? "gemm.c = " + std::to_string(*output) : s.kblocks > 1 ? "the sum of its K-blocks' GEMM outputs" : "the weighted sum of its GEMM outputs";
  return at + ", expected " + std::to_string(expected) + ", the balanced residue of " + of + " modulo " + std::to_string(mod) + " (in [" +
         std::to_string(low) + ", " + std::to_string(high) + "]): " + (value < low || value > high ? "outside the balanced range" : "not congruent to it");
}

}  // namespace

// Contract (cheap): balanced, and congruent to the weighted sum of the exact integers of its GEMM
// outputs (a non-integer output is a violation). With split's limbs representing the residues and
// every GEMM exact, the algebra of the modular product (proved for every residue pair of every
// modulus: recombine.* of `ozref prove`) makes it the residue of the product of the residue planes.
void Reduce::verify(const Arrays& in, const Arrays& out, size_t t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const ModularProduct& mp = *s.products[t];
  const size_t terms = mp.terms().size(), mn = s.m * s.n;
  const int64_t mod = mp.modulus();
  const uint32_t* c = in.get({Gemm::kName, "c"}).batch<uint32_t>(t);
  const int16_t* r = out.get(ref("c")).batch<int16_t>(t);
  parallel_check(s.Q * mn, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t at = v0; at < v1; ++at) {
      const size_t q = at / mn, v = at % mn;
      int64_t sum = 0;
      bool integral = true;
      for (size_t g = 0; g < terms; ++g)
        for (size_t b = 0; b < s.kblocks; ++b) {
          const int64_t output = s.lowp.integer_output(c[((q * terms + g) * s.kblocks + b) * mn + v]);
          integral = integral && output != kNotInteger;
          sum += mp.terms()[g].weight * (output % mod);
        }
      const int32_t value = r[at];
      if (integral && value >= -(mod / 2) && value <= (mod - 1) / 2 && (sum - value) % mod == 0) continue;
      const BlockFrame& f = s.o.block;  // a distributed run's block: named as in the whole C
      const int64_t single = s.lowp.integer_output(c[q * terms * mn + v]);  // the first GEMM's: the only one for INT8 without K-blocks
      const bool one = terms == 1 && s.kblocks == 1;
      part.violate(reduction_violation(s, name(), t, q, f.row(v / s.n), f.col(v % s.n), integral, sum, one ? &single : nullptr, value),
                   {t, 0, f.c_element(q, v / s.n, v % s.n, s.m, s.n)});
    }
  });
}

}  // namespace ozref::schemes::ozaki2
