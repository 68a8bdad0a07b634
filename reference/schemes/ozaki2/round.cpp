// round (rare): A~ = nearest-even(x 2^s) with |A~| <= 2^bits_eff and fp64-emu's correction planes
// hi7 = rne(A~ 2^(7 - bits_eff)), q7 = rne(x 2^(s + 8)) - 2^8 A~ (clamped to +-127); its check
// carries the scheme's exactness condition, the CRT bound.
#include <algorithm>
#include <cmath>

#include "schemes/ozaki2/crt_bound.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/element_name.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// A's arrays are by rows with the shift of each row; B's by rows with the shift of each column.
struct Side {
  const char *name, *hi7, *q7, *shift;
  bool by_row;
};
constexpr Side kSides[] = {{"a", "a_hi7", "a_q7", "row_shift", true}, {"b", "b_hi7", "b_q7", "col_shift", false}};

}  // namespace

std::vector<ArrayRef> Round::inputs() const {
  return {{kInputStage, "a"}, {kInputStage, "b"}, {Scale::kName, "row_shift"}, {Scale::kName, "col_shift"}, {Scale::kName, "bits_eff"}};
}

std::vector<ArraySpec> Round::outputs() const {
  const Setup& s = *s_;
  const std::vector<Axis> a = {{"m", s.m}, {"k", s.k}}, b = {{"k", s.k}, {"n", s.n}};
  return {{"a", DType::F8, a, {}},     {"b", DType::F8, b, {}},     {"a_hi7", DType::I1, a, {}},
          {"a_q7", DType::I1, a, {}},  {"b_hi7", DType::I1, b, {}}, {"b_q7", DType::I1, b, {}}};
}

void Round::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const int bits_eff = in.data<int32_t>({Scale::kName, "bits_eff"})[0];
  for (Side side : kSides) {
    const size_t rows = side.by_row ? s.m : s.k, cols = side.by_row ? s.k : s.n;
    const double* x = in.data<double>({kInputStage, side.name});
    const int32_t* shift = in.data<int32_t>({Scale::kName, side.shift});
    double* value = out.data<double>(ref(side.name));
    int8_t *hi = out.data<int8_t>(ref(side.hi7)), *q = out.data<int8_t>(ref(side.q7));
#pragma omp parallel for schedule(static)
    for (size_t v = 0; v < rows * cols; ++v) {
      const rare::Rounded r = rare::round_element(x[v], shift[side.by_row ? v / cols : v % cols], bits_eff);
      value[v] = r.value, hi[v] = r.hi7, q[v] = r.q7;
    }
  }
}

// Contract (cheap): A~ and the planes recomputed in 80-bit arithmetic (x 2^s is exact there),
// |A~| <= 2^bits_eff, and the CRT bound sum |A~||B~| < P/2.
void Round::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const int bits_eff = in.data<int32_t>({Scale::kName, "bits_eff"})[0];
  for (Side side : kSides) {
    const size_t rows = side.by_row ? s.m : s.k, cols = side.by_row ? s.k : s.n;
    const double* x = in.data<double>({kInputStage, side.name});
    const int32_t* shift = in.data<int32_t>({Scale::kName, side.shift});
    const double* got = out.data<double>(ref(side.name));
    const int8_t *hi = out.data<int8_t>(ref(side.hi7)), *q = out.data<int8_t>(ref(side.q7));
    parallel_check(rows * cols, report, [&](size_t v0, size_t v1, StageReport& part) {
      for (size_t v = v0; v < v1; ++v) {
        const std::string where = (side.by_row ? element_name("round.a", {{"i", v / cols}, {"k", v % cols}}) : element_name("round.b", {{"k", v / cols}, {"j", v % cols}}));
        const long double scaled = std::ldexp(static_cast<long double>(x[v]), shift[side.by_row ? v / cols : v % cols]);
        const long double want = std::nearbyint(scaled);
        if (got[v] != want) part.violate(where + " is not the integer of the scaled input");
        if (std::fabs(want) > std::ldexp(1.0L, bits_eff)) part.violate(where + " exceeds 2^bits_eff");
        const long double h = std::clamp(std::nearbyint(std::ldexp(want, 7 - bits_eff)), -127.0L, 127.0L);
        const long double e = std::clamp(std::nearbyint(std::ldexp(scaled, 8)) - want * 256, -127.0L, 127.0L);
        if (hi[v] != h || q[v] != e) part.violate(where + ": correction planes (" + std::to_string(hi[v]) + ", " + std::to_string(q[v]) + ")");
      }
    });
  }
  check_crt_bound(s, out.data<double>(ref("a")), out.data<double>(ref("b")), report);
}

}  // namespace ozref::schemes::ozaki2
