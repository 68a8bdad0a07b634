// bound (accurate scaling): the magnitudes of A's rows and B's columns scaled to at most 2^bits and
// rounded up into the format, and their product C_hi through the MMA model: an upper bound of
// |A| |B| in the lines' units, from which the scale stage takes the shifts.
#include <cmath>

#include "schemes/ozaki2/scaling.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::ozaki2 {

std::vector<ArrayRef> Bound::inputs() const { return {{kInputStage, "a"}, {kInputStage, "b"}}; }

std::vector<ArraySpec> Bound::outputs() const {
  const Setup& s = *s_;
  return {{"row_exp", DType::I4, {{"m", s.m}}, {}},
          {"col_exp", DType::I4, {{"n", s.n}}, {}},
          {"a", DType::I1, {{"m", s.m}, {"k", s.k}}, {}},
          {"b", DType::I1, {{"n", s.n}, {"k", s.k}}, {}},
          {"c", s.gemm_dtype(), {{"m", s.m}, {"n", s.n}}, {}}};
}

// The operands go into the bound GEMM: only values its instruction encodes.
std::optional<AdmittedValues> Bound::admitted(std::string_view array) const {
  return array == "a" || array == "b" ? encodable(s_->lowp) : std::nullopt;
}

void Bound::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const Magnitudes a = magnitudes(in.get({kInputStage, "a"}), s.S, s.m, s.k);
  const Magnitudes b = magnitudes(in.get({kInputStage, "b"}), s.S, s.k, s.n);
  bound_operands_of_rows(a.view, s.lowp, out.data<int32_t>(ref("row_exp")), out.data<int8_t>(ref("a")));
  bound_operands_of_columns(b.view, s.lowp, out.data<int32_t>(ref("col_exp")), out.data<int8_t>(ref("b")));
  s.lowp.run_into(s.m, s.n, s.k, out.data<int8_t>(ref("a")), out.data<int8_t>(ref("b")), true, 0,
                  std::span<uint32_t>(out.data<uint32_t>(ref("c")), s.m * s.n));
}

// Contract: (cheap) each line's exponent puts its largest magnitude in [2^(bits-1), 2^bits), each
// operand is ceil(|x| 2^u) (80-bit arithmetic) or the next integer above it that the format
// holds; (full) C_hi is the exact product of the operands.
void Bound::verify(const Arrays& in, const Arrays& out, size_t, Verify level, StageReport& report) const {
  const Setup& s = *s_;
  const Magnitudes a = magnitudes(in.get({kInputStage, "a"}), s.S, s.m, s.k);
  const Magnitudes b = magnitudes(in.get({kInputStage, "b"}), s.S, s.k, s.n);
  const int bits = bound_bits(s.lowp.format());
  const BlockFrame& f = s.o.block;  // a distributed run's block: lines named as in the whole A and B
  // Line `line` (of the whole A or B) in check `check` (0: A, 1: B): its exponent, then its elements.
  auto check_line = [&](const char* side, size_t line, int u, auto&& element, const int8_t* operand, size_t count, size_t step) {
    const uint64_t check = side[0] == 'B', first = uint64_t(line) * (count + 1);
    long double largest = 0;
    for (size_t v = 0; v < count; ++v) largest = std::max(largest, std::fabs(static_cast<long double>(element(v))));
    const long double top = std::ldexp(largest, u);
    if (largest != 0 && !(top >= std::ldexp(1.0L, bits - 1) && top < std::ldexp(1.0L, bits)))
      report.violate(element_name(side[0] == 'A' ? "bound.row_exp" : "bound.col_exp", {{side[0] == 'A' ? "i" : "j", line}}) + " = " + std::to_string(u) +
                         " does not put the line's maximum in [2^" +
                         std::to_string(bits - 1) + ", 2^" + std::to_string(bits) + ")",
                     {0, check, first});
    for (size_t v = 0; v < count; ++v) {
      const long double ceiling = std::ceil(std::ldexp(std::fabs(static_cast<long double>(element(v))), u));
      const int got = operand[v * step];
      bool next_held = got >= ceiling;  // then the ceiling is an int8 value (a trace's u can make it infinite)
      if (next_held)
        for (int x = static_cast<int>(ceiling); next_held && x < got; ++x) next_held = !s.lowp.representable(x);
      if (!next_held || !s.lowp.representable(got))
        report.violate(element_name(side[0] == 'A' ? "bound.a" : "bound.b", {{side[0] == 'A' ? "i" : "j", line}, {"k", v}}) + " = " + std::to_string(got) +
                           " is not ceil(|x| 2^u) in the format",
                       {0, check, first + 1 + v});
    }
  };
  const int32_t *u = out.data<int32_t>(ref("row_exp")), *w = out.data<int32_t>(ref("col_exp"));
  const int8_t *oa = out.data<int8_t>(ref("a")), *ob = out.data<int8_t>(ref("b"));
  for (size_t i = 0; i < s.m && f.checks_a; ++i) check_line("A", f.row(i), u[i], [&](size_t v) { return a.view(i, v); }, &oa[i * s.k], s.k, 1);
  for (size_t j = 0; j < s.n && f.checks_b; ++j) check_line("B", f.col(j), w[j], [&](size_t v) { return b.view(v, j); }, &ob[j * s.k], s.k, 1);
  if (level == Verify::Full)
    check_lowp_gemm(s.lowp, s.m, s.n, s.k, oa, ob, true, std::span<const uint32_t>(out.data<uint32_t>(ref("c")), s.m * s.n),
                    "bound.c", "", report, f, {0, 2, 0});
}

std::optional<GemmElement> Bound::gemm_element(const Arrays&, const Arrays& out, std::string_view array, size_t flat) const {
  if (array != "c") return std::nullopt;
  const Setup& s = *s_;
  const int8_t* a = out.data<int8_t>(ref("a"));
  const int8_t* b = out.data<int8_t>(ref("b"));
  return gemm_operands(s.lowp, &a[(flat / s.n) * s.k], 1, &b[(flat % s.n) * s.k], 1, s.k);
}

}  // namespace ozref::schemes::ozaki2
