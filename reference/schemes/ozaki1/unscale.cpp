// unscale: C = C' 2^(unit - s_i - t_j): exact and fused correctly rounded from the integer; fp64
// the FP64 sum scaled by 2^(-s_i - t_j).
#include <cmath>

#include "schemes/ozaki1/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/crt_words.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes::ozaki1 {

std::vector<ArrayRef> Unscale::inputs() const {
  return {{Accumulate::kName, "c"}, {Scale::kName, "row_shift"}, {Scale::kName, "col_shift"}};
}

std::vector<ArraySpec> Unscale::outputs() const { return {{"c", DType::F8, {{"m", s_->m}, {"n", s_->n}}, {}}}; }

void Unscale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const int32_t *row = in.data<int32_t>({Scale::kName, "row_shift"}), *col = in.data<int32_t>({Scale::kName, "col_shift"});
  const Tensor& acc = in.get({Accumulate::kName, "c"});
  double* c = out.data<double>(ref("c"));
  const size_t words = s.words();
#pragma omp parallel for schedule(static)
  for (size_t x = 0; x < s.m * s.n; ++x) {
    const int64_t shift = -(int64_t{row[x / s.n]} + col[x % s.n]);  // a trace's shifts: any int32 values
    c[x] = s.exact ? nearest_double(mpz_from_words(&acc.as<int64_t>()[x * words], words), clamped_exponent(s.sl.unit_exponent() + shift))
                   : std::ldexp(acc.as<double>()[x], clamped_exponent(shift));
  }
}

// Contract (cheap, exact and fused): equal to the GMP oracle's rounding of C' 2^e.
void Unscale::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const int32_t *row = in.data<int32_t>({Scale::kName, "row_shift"}), *col = in.data<int32_t>({Scale::kName, "col_shift"});
  const int64_t* acc = in.data<int64_t>({Accumulate::kName, "c"});
  const double* c = out.data<double>(ref("c"));
  const size_t words = s.words();
  parallel_check(s.m * s.n, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t x = v0; x < v1; ++x) {
      const int e = clamped_exponent(int64_t{s.sl.unit_exponent()} - row[x / s.n] - col[x % s.n]);
      if (!is_correct_rounding(mpz_from_words(&acc[x * words], words), e, c[x]))
        part.violate(element_name("unscale.c", {{"i", x / s.n}, {"j", x % s.n}}) + " is not C' 2^e correctly rounded");
    }
  });
}

}  // namespace ozref::schemes::ozaki1
