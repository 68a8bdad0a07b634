// slice: X = trunc(x 2^(bits - e)) (toward zero; |X| < 2^bits with e from the scale stage) as p
// balanced base-256 digits, X = sum d_t 256^(p-1-t): each lower digit ((X + 128) mod 256) - 128,
// the carry going up, the top digit the rest (within +-127 by the scale's choice). Two's-complement
// and sign-magnitude digits fail the records (docs/third-party.md).
#include <cmath>

#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes::cublas_fixedpoint {
namespace {

// A's elements (m x k) by their row's scale, B's (k x n) by their column's, each in its K-block.
struct Side {
  const char *name, *scale;
  bool by_row;
};
constexpr Side kSides[] = {{"a", "row_exp", true}, {"b", "col_exp", false}};

// The scale exponent of element v of a side (a trace's: any int32, clamped where x 2^(bits - e)
// truncates to zero or saturates either way).
int exponent_of(const Setup& s, const Side& side, const int32_t* e, size_t v) {
  const size_t cols = side.by_row ? s.k : s.n, row = v / cols, col = v % cols;
  const size_t kk = side.by_row ? col : row, line = side.by_row ? row : col;
  return clamped_exponent(e[kk / s.kb * (side.by_row ? s.m : s.n) + line]);
}

// trunc(x 2^shift); |x| = mant 2^(ex-53) with mant < 2^53 and ex <= e, so with a right scale up =
// ex - 53 + bits - e <= 127 - 53 = 74 and the result fits (|X| < 2^127). Saturated at 2^126 beyond
// that (only a scale too small for x gets there: the digits then break the identity and the
// contract reports it).
__int128 truncated(double x, int shift) {
  if (x == 0) return 0;
  int ex = 0;
  const uint64_t mant = static_cast<uint64_t>(std::ldexp(std::frexp(std::fabs(x), &ex), 53));  // |x| = mant 2^(ex-53)
  const int up = ex - 53 + shift;
  unsigned __int128 mag = 0;
  if (up >= 0) mag = up > 74 ? static_cast<unsigned __int128>(1) << 126 : static_cast<unsigned __int128>(mant) << up;
  else if (up > -64) mag = mant >> -up;
  return x < 0 ? -static_cast<__int128>(mag) : static_cast<__int128>(mag);
}

void balanced_digits(__int128 x, size_t p, int8_t* out, size_t stride) {
  for (size_t t = p - 1; t > 0; --t) {
    const int digit = static_cast<int>(static_cast<int64_t>((x + 128) & 255)) - 128;
    out[t * stride] = static_cast<int8_t>(digit);
    x = (x - digit) >> 8;  // exact: x - digit is a multiple of 256
  }
  out[0] = static_cast<int8_t>(x < -128 ? -128 : x > 127 ? 127 : x);  // out of range only for a wrong scale
}

// Empty when slices at out[0], out[stride], ... are the balanced digits of trunc(x 2^(bits - e)),
// checked in exact rationals; else what is wrong.
std::string check_digits(double x, int e, int bits, size_t p, const int8_t* d, size_t stride) {
  const mpq_class scaled = mpq_class(x) * (e <= bits ? mpq_class(mpz_class(1) << (bits - e)) : mpq_class(1, mpz_class(1) << (e - bits)));
  mpz_class want;
  mpz_tdiv_q(want.get_mpz_t(), scaled.get_num_mpz_t(), scaled.get_den_mpz_t());
  mpz_class got = 0;
  for (size_t t = 0; t < p; ++t) got = got * 256 + d[t * stride];
  if (got != want) return "digits add up to " + got.get_str() + ", not trunc(x 2^(" + std::to_string(bits) + " - e)) = " + want.get_str();
  if (d[0] == -128) return "top digit -128 is outside +-127";
  return "";
}

}  // namespace

std::vector<ArrayRef> Slice::inputs() const {
  return {{kInputStage, "a"}, {kInputStage, "b"}, {Scale::kName, "row_exp"}, {Scale::kName, "col_exp"}};
}

std::vector<ArraySpec> Slice::outputs() const {
  const Setup& s = *s_;
  return {{"a", DType::I1, {{"p", s.p}, {"m", s.m}, {"k", s.k}}, {}}, {"b", DType::I1, {{"p", s.p}, {"k", s.k}, {"n", s.n}}, {}}};
}

void Slice::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  for (const Side& side : kSides) {
    const size_t count = (side.by_row ? s.m : s.n) * s.k;
    const double* x = in.data<double>({kInputStage, side.name});
    const int32_t* e = in.data<int32_t>({Scale::kName, side.scale});
    int8_t* d = out.data<int8_t>(ref(side.name));
#pragma omp parallel for schedule(static)
    for (size_t v = 0; v < count; ++v) balanced_digits(truncated(x[v], s.bits - exponent_of(s, side, e, v)), s.p, &d[v], count);
  }
}

// Contract (cheap): every element's digits are balanced (lower digits in [-128, 127] by their
// type, the top one in [-127, 127]) and add up, in exact integers, to trunc(x 2^(bits - e)).
void Slice::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  for (const Side& side : kSides) {
    const size_t cols = side.by_row ? s.k : s.n, count = (side.by_row ? s.m : s.n) * s.k;
    const double* x = in.data<double>({kInputStage, side.name});
    const int32_t* e = in.data<int32_t>({Scale::kName, side.scale});
    const int8_t* d = out.data<int8_t>(ref(side.name));
    parallel_check(count, report, [&](size_t v0, size_t v1, StageReport& part) {
      for (size_t v = v0; v < v1; ++v) {
        const std::string why = check_digits(x[v], exponent_of(s, side, e, v), s.bits, s.p, &d[v], count);
        if (!why.empty()) part.violate((side.by_row ? element_name("A", {{"i", v / cols}, {"k", v % cols}}) : element_name("B", {{"k", v / cols}, {"j", v % cols}})) + ": " + why);
      }
    });
  }
}

}  // namespace ozref::schemes::cublas_fixedpoint
