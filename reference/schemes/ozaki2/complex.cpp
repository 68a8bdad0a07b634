// complex: the 3M combination of a complex run, per modulus Re = T1 - T2 and Im = T3 - T1 - T2
// modulo m from the residues of T1 = re re, T2 = im im, T3 = (re + im)(re + im).
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {

ArrayRef reduced_products(const Setup& s) {
  if (s.S == 2) return {Complex::kName, "c"};
  return {s.int8 ? Reduce::kReduce : Reduce::kRecombine, "c"};
}

std::vector<ArrayRef> Complex::inputs() const { return {{s_->int8 ? Reduce::kReduce : Reduce::kRecombine, "c"}}; }

std::vector<ArraySpec> Complex::outputs() const {
  const Setup& s = *s_;
  return {{"c", DType::I2, {s.moduli_axis(), {"2", 2}, {"m", s.m}, {"n", s.n}}, {}}};
}

void Complex::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const size_t mn = s.m * s.n;
  const int16_t* products = in.data<int16_t>(inputs()[0]);
  int16_t* c = out.data<int16_t>(ref("c"));
#pragma omp parallel for schedule(static)
  for (size_t t = 0; t < s.N; ++t) {
    const int64_t mod = s.moduli[t];
    const int16_t *t1 = &products[(t * 3 + 0) * mn], *t2 = &products[(t * 3 + 1) * mn], *t3 = &products[(t * 3 + 2) * mn];
    for (size_t v = 0; v < mn; ++v) {
      c[(t * 2 + 0) * mn + v] = int16_t(balanced_residue(int64_t(t1[v]) - t2[v], mod));
      c[(t * 2 + 1) * mn + v] = int16_t(balanced_residue(int64_t(t3[v]) - t1[v] - t2[v], mod));
    }
  }
}

// Contract (cheap): both parts balanced and congruent to T1 - T2 and T3 - T1 - T2. With the plane
// products exact, the 3M identity (re + im)(re' + im') - re re' - im im' = re im' + im re' makes
// them the residues of Re C' and Im C'.
void Complex::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const size_t mn = s.m * s.n;
  const int16_t* products = in.data<int16_t>(inputs()[0]);
  const int16_t* c = out.data<int16_t>(ref("c"));
  for (size_t t = 0; t < s.N; ++t) {
    const int64_t mod = s.moduli[t];
    for (size_t v = 0; v < mn; ++v) {
      const int64_t t1 = products[(t * 3) * mn + v], t2 = products[(t * 3 + 1) * mn + v], t3 = products[(t * 3 + 2) * mn + v];
      const int64_t re = c[(t * 2) * mn + v], im = c[(t * 2 + 1) * mn + v];
      const bool balanced = re >= -(mod / 2) && re <= (mod - 1) / 2 && im >= -(mod / 2) && im <= (mod - 1) / 2;
      if (!balanced || (re - t1 + t2) % mod != 0 || (im - t3 + t1 + t2) % mod != 0)
        report.violate(s.modulus_label(t) + " C" + index3(t, v / s.n, v % s.n) + " = (" + std::to_string(re) + ", " + std::to_string(im) +
                       ") is not (T1 - T2, T3 - T1 - T2) of its plane products mod m");
    }
  }
}

}  // namespace ozref::schemes::ozaki2
