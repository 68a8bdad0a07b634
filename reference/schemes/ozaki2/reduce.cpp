// reduce (int8, rare) and recombine (fp8, fp4): the balanced residue of each plane product from
// its modulus's GEMM outputs (the kernel's Barrett reduction, rare's biased one, or the weighted
// sum of the limb products reduced mod m; modular_product.hpp), modulus by modulus.
#include <algorithm>

#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {

std::vector<ArrayRef> Reduce::inputs() const { return {{Gemm::kName, "c"}}; }

std::vector<ArraySpec> Reduce::outputs() const {
  const Setup& s = *s_;
  return {{"c", DType::I2, {s.moduli_axis(), s.products_axis(), {"m", s.m}, {"n", s.n}}, s.moduli_batches()}};
}

void Reduce::compute(const Arrays& in, Arrays& out, size_t t) const {
  const Setup& s = *s_;
  const ModularProduct& mp = *s.products[t];
  const size_t terms = mp.terms().size(), mn = s.m * s.n;
  const uint32_t* c = in.get({Gemm::kName, "c"}).batch<uint32_t>(t);
  int16_t* r = out.get(ref("c")).batch<int16_t>(t);
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
      for (size_t g = 0; g < terms; ++g) {
        const int64_t output = s.lowp.integer_output(c[(q * terms + g) * mn + v]);
        integral = integral && output != kNotInteger;
        sum += mp.terms()[g].weight * (output % mod);
      }
      const int32_t value = r[at];
      if (integral && value >= -(mod / 2) && value <= (mod - 1) / 2 && (sum - value) % mod == 0) continue;
      const BlockFrame& f = s.o.block;  // a distributed run's block: named as in the whole C
      part.violate(mp.name() + " C" + index3(t, f.row(v / s.n), f.col(v % s.n)) + ": residue " + std::to_string(value) +
                       (integral ? " is not the weighted sum of the GEMM outputs mod m" : " from a non-integer GEMM output"),
                   {t, 0, f.c_element(q, v / s.n, v % s.n, s.m, s.n)});
    }
  });
}

}  // namespace ozref::schemes::ozaki2
