// unscale: C = C' 2^-(s_i + t_j) rounded to FP64: exact and garner correctly rounded (nearest-even,
// from the integer); dd as GEMMul8, ldexp(hi + lo). rare adds its correction
// (corr1 + corr2) 2^(bits_eff - 15) before the one rounding.
#include <cmath>
#include <cstring>
#include <limits>

#include "exact/rational_oracle.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/crt_words.hpp"
#include "schemes/common/fp64_rounding.hpp"
#include "trace/compare.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

struct Operands {
  const int64_t* words = nullptr;  // exact, garner
  const double *hi = nullptr, *lo = nullptr;  // dd
  const int32_t *row = nullptr, *col = nullptr;
  const int32_t* correction = nullptr;  // rare: 2 x m x n
  int correction_exponent = 0;
};

Operands operands(const Setup& s, const Arrays& in) {
  Operands x;
  if (s.o.crt == CrtVariant::DoubleDouble) {
    x.hi = in.data<double>({CrtStage::kName, "hi"});
    x.lo = in.data<double>({CrtStage::kName, "lo"});
  } else {
    x.words = in.data<int64_t>({CrtStage::kName, "c"});
  }
  x.row = in.data<int32_t>({Scale::kName, "row_shift"});
  x.col = in.data<int32_t>({Scale::kName, "col_shift"});
  if (s.rare) {
    x.correction = in.data<int32_t>({Correction::kName, "c"});
    x.correction_exponent = in.data<int32_t>({Scale::kName, "bits_eff"})[0] - 15;
  }
  return x;
}

// The exponent -(s_i + t_j) of row i and column j (a trace's shifts: any int32 values).
int exponent_of(const Operands& x, size_t i, size_t j) { return clamped_exponent(-(int64_t{x.row[i]} + x.col[j])); }

// rare's correction of element v (the two correction GEMM outputs summed).
int64_t correction_of(const Setup& s, const Operands& x, size_t v) {
  return x.correction ? int64_t{x.correction[v]} + x.correction[s.m * s.n + v] : 0;
}

// rare's correction of element v as the double the dd path adds (exact: a small integer times 2^e).
double correction_value(const Setup& s, const Operands& x, size_t v) {
  return x.correction ? std::ldexp(double(correction_of(s, x, v)), x.correction_exponent) : 0.0;
}

// C' of element `at` as a 128-bit integer (a P below 2^126), when its sum with rare's correction
// (below 2^71) stays in 128 bits: C' in (-P/2, P/2] does, a trace's C' may not.
bool wide_value(const Operands& x, size_t at, __int128& value) {
  constexpr __int128 kLimit = static_cast<__int128>(1) << 125;
  std::memcpy(&value, &x.words[at * 2], sizeof value);
  return value >= -kLimit && value <= kLimit;
}

// The integer to round, C' plus rare's correction, exactly (element at of parts x m x n).
mpz_class total(const Setup& s, const Operands& x, size_t at) {
  const size_t words = s.crt_words(), v = at % (s.m * s.n);
  return mpz_from_words(&x.words[at * words], words) +
         (mpz_class(static_cast<long>(correction_of(s, x, v))) << x.correction_exponent);
}

// Row i of part o (line = o m + i) of C, element by element; a row at a time so that an element's
// row and column come without a division.
void unscale_row(const Setup& s, const Operands& x, size_t line, double* c) {
  const size_t i = line % s.m, first = line * s.n, v0 = i * s.n;
  const bool wide = s.crt.fits_int128() && !x.hi;
  for (size_t j = 0; j < s.n; ++j) {
    const size_t at = first + j, v = v0 + j;
    const int e = exponent_of(x, i, j);
    if (x.hi) {
      c[at] = std::ldexp(x.hi[at] + x.lo[at] + correction_value(s, x, v), e);
    } else if (__int128 value; wide && wide_value(x, at, value)) {
      c[at] = nearest_double(value + (static_cast<__int128>(correction_of(s, x, v)) << x.correction_exponent), e);
    } else {  // GMP: a wide P, or a trace's C' beyond P/2 where the sum could leave 128 bits
      c[at] = nearest_double(total(s, x, at), e);
    }
  }
}

}  // namespace

std::vector<ArrayRef> Unscale::inputs() const {
  std::vector<ArrayRef> r = {{Scale::kName, "row_shift"}, {Scale::kName, "col_shift"}};
  if (s_->o.crt == CrtVariant::DoubleDouble) r.insert(r.end(), {{CrtStage::kName, "hi"}, {CrtStage::kName, "lo"}});
  else r.push_back({CrtStage::kName, "c"});
  if (s_->rare) r.insert(r.end(), {{Correction::kName, "c"}, {Scale::kName, "bits_eff"}});
  return r;
}

std::vector<ArraySpec> Unscale::outputs() const {
  const Setup& s = *s_;
  return {{"c", DType::F8, {s.parts_axis(), {"m", s.m}, {"n", s.n}}, {}}};
}

void Unscale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const Operands x = operands(s, in);
  double* c = out.data<double>(ref("c"));
#pragma omp parallel for schedule(static)
  for (size_t line = 0; line < s.S * s.m; ++line) unscale_row(s, x, line, c);
}

namespace {

// dd: C within the rounding of its two additions and the scaling of (hi + lo + correction) 2^e:
// |C - X| <= 2^-51 (|hi| + |lo| + |correction|) 2^e + 2^-1074, and +-Inf only beyond DBL_MAX.
// A trace's non-finite hi or lo (the crt stage's violation) has no exact value: C is then what FP64
// gives, ldexp(hi + lo + correction, e), NaN for NaN.
bool within_dd_rounding(double hi, double lo, double correction, int e, double got) {
  if (!std::isfinite(hi) || !std::isfinite(lo)) {
    const double want = std::ldexp(hi + lo + correction, e);
    return std::isnan(want) ? std::isnan(got) : got == want;
  }
  if (std::isnan(got)) return false;
  const mpq_class x = (mpq_class(hi) + mpq_class(lo) + mpq_class(correction)) * oracle::pow2(e);
  if (std::isinf(got)) return (got > 0 ? x : mpq_class(-x)) > mpq_class(std::numeric_limits<double>::max());
  const mpq_class size = abs(mpq_class(hi)) + abs(mpq_class(lo)) + abs(mpq_class(correction));
  return abs(mpq_class(got) - x) <= size * oracle::pow2(e - 51) + oracle::pow2(-1074);
}

}  // namespace

// "unscale.c[i 3, j 0]: found -2.29..., expected -1.14..., C' 2^e rounded to nearest even (C' =
// -1234..., e = -(s_i + t_j) = -103)"; dd: outside the rounding of (hi + lo) 2^e.
std::string unscale_violation(const Setup& s, const Operands& x, size_t at, size_t i, size_t j, int e, double got) {
  const std::string part = s.S == 1 ? "" : at < s.m * s.n ? "re, " : "im, ";
  const std::string where = "unscale.c[" + part + "i " + std::to_string(i) + ", j " + std::to_string(j) + "]: found " +
                            element_text(DType::F8, reinterpret_cast<const uint8_t*>(&got));
  if (x.hi) return where + ", not (hi + lo) 2^" + std::to_string(e) + " within the rounding of its sum";
  const mpz_class exact = total(s, x, at);
  const double want = nearest_double(exact, e);
  return where + ", expected " + element_text(DType::F8, reinterpret_cast<const uint8_t*>(&want)) + ", C' 2^e rounded to nearest even (C' = " +
         exact.get_str() + ", e = -(s_i + t_j) = " + std::to_string(e) + ")";
}

// Contract (cheap): exact and garner: equal to the GMP oracle's rounding of (C' + correction) 2^e;
// dd: within the rounding of its sum (within_dd_rounding).
void Unscale::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const Operands x = operands(s, in);
  const size_t mn = s.m * s.n;
  const double* c = out.data<double>(ref("c"));
  parallel_check(s.S * mn, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t at = v0; at < v1; ++at) {
      const size_t v = at % mn;
      const int e = exponent_of(x, v / s.n, v % s.n);
      const bool ok = x.hi ? within_dd_rounding(x.hi[at], x.lo[at], correction_value(s, x, v), e, c[at])
                           : is_correct_rounding(total(s, x, at), e, c[at]);
      if (ok) continue;
      const BlockFrame& f = s.o.block;  // a distributed run's block: named as in the whole C
      part.violate(unscale_violation(s, x, at, f.row(v / s.n), f.col(v % s.n), e, c[at]),
                   {0, 0, f.c_element(at / mn, v / s.n, v % s.n, s.m, s.n)});
    }
  });
}

}  // namespace ozref::schemes::ozaki2
