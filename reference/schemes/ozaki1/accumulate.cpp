// accumulate: C' = sum weight(t + u) C_tu in units of 2^unit, exact (an integer of W 64-bit words,
// two's complement, least significant first; exact and fused) or in FP64 in pair order as ozIMMU
// adds them (fp64: each product converted and added to an FP64 sum).
#include "schemes/ozaki1/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/crt_words.hpp"
#include "schemes/common/element_name.hpp"

namespace ozref::schemes::ozaki1 {

std::vector<ArrayRef> Accumulate::inputs() const { return {{Gemm::kName, "c"}}; }

std::vector<ArraySpec> Accumulate::outputs() const {
  const Setup& s = *s_;
  if (!s.exact) return {{"c", DType::F8, {{"m", s.m}, {"n", s.n}}, {}}};
  return {{"c", DType::I8, {{"m", s.m}, {"n", s.n}, {"W", s.words()}}, {}}};
}

void Accumulate::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const uint32_t* c = in.data<uint32_t>({Gemm::kName, "c"});
  const size_t mn = s.m * s.n, words = s.words();
#pragma omp parallel for schedule(static)
  for (size_t x = 0; x < mn; ++x) {
    mpz_class exact = 0;
    double sum = 0;
    for (size_t q = 0; q < s.outputs(); ++q) {
      const size_t d = s.fused ? q : s.pairs[q].first + s.pairs[q].second;
      const int64_t v = s.lead().integer_output(c[q * mn + x]);
      if (v == kNotInteger) continue;  // the gemm stage reports it
      if (s.exact) exact += s.sl.weight(d) * mpz_class(static_cast<long>(v));
      else sum += double(v) * s.sl.weight_fp64(d);  // ozIMMU's FP64 sum, in pair order
    }
    if (s.exact) words_from_mpz(exact, &out.data<int64_t>(ref("c"))[x * words], words);
    else out.data<double>(ref("c"))[x] = sum;
  }
}

// Contract (cheap; exact and fused): C' is the weighted sum of the exact integers of the GEMM
// outputs, sum weight(t + u) C_tu, recomputed here with GMP (a non-integer output is a violation).
// With every GEMM exact this is the triangular sum of the slice products.
void Accumulate::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const uint32_t* c = in.data<uint32_t>({Gemm::kName, "c"});
  const int64_t* acc = out.data<int64_t>(ref("c"));
  const size_t mn = s.m * s.n, words = s.words();
  parallel_check(mn, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t x = v0; x < v1; ++x) {
      mpz_class want = 0;
      bool integral = true;
      for (size_t q = 0; q < s.outputs(); ++q) {
        const int64_t v = s.lead().integer_output(c[q * mn + x]);
        integral = integral && v != kNotInteger;
        if (v != kNotInteger) want += s.sl.weight(s.fused ? q : s.pairs[q].first + s.pairs[q].second) * mpz_class(static_cast<long>(v));
      }
      if (!integral || mpz_from_words(&acc[x * words], words) != want)
        part.violate(element_name("accumulate.c", {{"i", x / s.n}, {"j", x % s.n}}) + (integral ? " is not the weighted sum of the GEMM outputs" : " sums a non-integer GEMM output"));
    }
  });
}

}  // namespace ozref::schemes::ozaki1
