// complex: Re C' and Im C' modulo m from the plane products of a complex run (complex_product.hpp):
// 3M's Re = T1 - T2 and Im = T3 - T1 - T2 from T1 = re re, T2 = im im, T3 = (re + im)(re + im);
// the Gaussian Re = (Z + W) / 2 and Im = (W - Z) iota / 2 from Z = z z', W = w w'.
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/common/element_name.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// Re and Im of one element of modulus t from its plane products p[0 .. Q).
std::pair<int64_t, int64_t> combined(const Setup& s, size_t t, const int64_t* p) {
  if (!s.gaussian.empty()) return {s.gaussian[t].real(p[0], p[1]), s.gaussian[t].imag(p[0], p[1])};
  const int64_t m = s.moduli[t];
  return {balanced_residue(p[0] - p[1], m), balanced_residue(p[2] - p[0] - p[1], m)};
}

}  // namespace

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
  for (size_t t = 0; t < s.N; ++t)
    for (size_t v = 0; v < mn; ++v) {
      int64_t p[3];
      for (size_t q = 0; q < s.Q; ++q) p[q] = products[(t * s.Q + q) * mn + v];
      const auto [re, im] = combined(s, t, p);
      c[(t * 2 + 0) * mn + v] = int16_t(re);
      c[(t * 2 + 1) * mn + v] = int16_t(im);
    }
}

// Contract (cheap): both parts balanced and congruent to their combination of the plane products:
// 3M: Re = T1 - T2, Im = T3 - T1 - T2; Gaussian: 2 Re = Z + W, 2 iota Im = Z - W. With the plane
// products exact, the identities (re + im)(re' + im') - re re' - im im' = re im' + im re' and
// (re +- iota im)(re' +- iota im') = Re +- iota Im (iota^2 = -1, `ozref prove`: moduli.gaussian)
// make them the residues of Re C' and Im C'.
void Complex::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const size_t mn = s.m * s.n;
  const int16_t* products = in.data<int16_t>(inputs()[0]);
  const int16_t* c = out.data<int16_t>(ref("c"));
  const char* rule = s.gaussian.empty() ? "(T1 - T2, T3 - T1 - T2)" : "((Z + W) / 2, (W - Z) iota / 2)";
  for (size_t t = 0; t < s.N; ++t) {
    const int64_t mod = s.moduli[t];
    for (size_t v = 0; v < mn; ++v) {
      int64_t p[3];
      for (size_t q = 0; q < s.Q; ++q) p[q] = products[(t * s.Q + q) * mn + v];
      const int64_t re = c[(t * 2) * mn + v], im = c[(t * 2 + 1) * mn + v];
      const bool balanced = re >= -(mod / 2) && re <= (mod - 1) / 2 && im >= -(mod / 2) && im <= (mod - 1) / 2;
      const bool congruent = s.gaussian.empty() ? (re - p[0] + p[1]) % mod == 0 && (im - p[2] + p[0] + p[1]) % mod == 0
                                                : (2 * re - p[0] - p[1]) % mod == 0 && (2 * s.gaussian[t].iota * im - p[0] + p[1]) % mod == 0;
      if (!balanced || !congruent)
        report.violate("complex.c[" + s.modulus_label(t) + ", i " + std::to_string(v / s.n) + ", j " + std::to_string(v % s.n) + "] = (" + std::to_string(re) + ", " + std::to_string(im) +
                       ") is not " + rule + " of its plane products mod m");
    }
  }
}

}  // namespace ozref::schemes::ozaki2
