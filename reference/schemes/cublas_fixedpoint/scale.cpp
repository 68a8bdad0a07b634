// scale: per K-block, the exponent e of each row of A and column of B: max|x| in [2^(e-1), 2^e),
// plus one when max|x|'s significand exceeds 127/64 (the near-2 bump, pinned by the near2fine
// probe: docs/third-party.md), so that the balanced top digit stays within +-127; never below
// kMinScale (a line whose largest magnitude is below 2^-1022, FP64's normal range: the edge probe's
// sub_ cases).
#include <algorithm>
#include <cmath>

#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes::cublas_fixedpoint {
namespace {

// A's rows (x[i * k + c]) or B's columns (x[c * n + j]) over one block's k, c = begin..begin+length-1.
struct Side {
  const char *input, *output, *what;
  bool by_row;
};
constexpr Side kSides[] = {{"a", "row_exp", "row", true}, {"b", "col_exp", "column", false}};

double line_max(const Setup& s, const Side& side, const double* x, size_t line, size_t block) {
  double top = 0;
  for (size_t c = s.block_begin(block); c < s.block_begin(block) + s.block_length(block); ++c)
    top = std::fmax(top, std::fabs(side.by_row ? x[line * s.k + c] : x[c * s.n + line]));
  return top;
}

constexpr int kMinScale = -1022;  // cuBLAS's floor: the scale of 2^-1023, the largest subnormal's binade

int line_exponent(double top) {
  if (top == 0) return 0;
  int e = 0;
  const double f = std::frexp(top, &e);  // top = f 2^e, f in [1/2, 1)
  return std::max(kMinScale, f > 127.0 / 128 ? e + 1 : e);
}

}  // namespace

std::vector<ArrayRef> Scale::inputs() const { return {{kInputStage, "a"}, {kInputStage, "b"}}; }

std::vector<ArraySpec> Scale::outputs() const {
  const Setup& s = *s_;
  return {{"row_exp", DType::I4, {{"blocks", s.blocks}, {"m", s.m}}, {}}, {"col_exp", DType::I4, {{"blocks", s.blocks}, {"n", s.n}}, {}}};
}

void Scale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  for (const Side& side : kSides) {
    const double* x = in.data<double>({kInputStage, side.input});
    int32_t* e = out.data<int32_t>(ref(side.output));
    const size_t lines = side.by_row ? s.m : s.n;
    for (size_t b = 0; b < s.blocks; ++b)
      for (size_t l = 0; l < lines; ++l) e[b * lines + l] = line_exponent(line_max(s, side, x, l, b));
  }
}

// Contract (cheap): e is the smallest exponent, at least kMinScale, whose top digit holds the line's
// largest magnitude: max|x| <= 127 2^(e-7), and 127 2^(e-8) < max|x| unless e = kMinScale
// (max|x| 2^(7-e) is exact: a power-of-two scaling into (0, 128]); an all-zero line has e = 0.
void Scale::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  for (const Side& side : kSides) {
    const double* x = in.data<double>({kInputStage, side.input});
    const int32_t* e = out.data<int32_t>(ref(side.output));
    const size_t lines = side.by_row ? s.m : s.n;
    for (size_t b = 0; b < s.blocks; ++b)
      for (size_t l = 0; l < lines; ++l) {
        const double top = line_max(s, side, x, l, b);
        const int got = e[b * lines + l];
        const double v = top == 0 ? 0 : std::ldexp(top, clamped_exponent(7 - int64_t{got}));
        const bool holds = top == 0 ? got == 0 : got >= kMinScale && (v > 63.5 || got == kMinScale) && v <= 127;
        if (!holds)
          report.violate(std::string(side.by_row ? "A" : "B") + " " + side.what + " " + std::to_string(l) + " in K-block " + std::to_string(b) +
                         ": scale exponent " + std::to_string(got) + " is not the smallest e >= " + std::to_string(kMinScale) + " with max|x| <= 127 2^(e-7)");
      }
  }
}

}  // namespace ozref::schemes::cublas_fixedpoint
