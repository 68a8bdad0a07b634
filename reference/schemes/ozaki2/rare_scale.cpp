// scale (rare): fp64-emu's shifts, each line's s = 52 - ilogb(max |x|) plus one global gain from
// the largest row and column norms, and bits_eff = 53 + gain (rare.hpp). A free choice checked
// through round's CRT bound.
#include <cmath>

#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/stages.hpp"

namespace ozref::schemes::ozaki2 {

std::vector<ArrayRef> RareScale::inputs() const { return {{kInputStage, "a"}, {kInputStage, "b"}}; }

std::vector<ArraySpec> RareScale::outputs() const {
  return {{"row_shift", DType::I4, {{"m", s_->m}}, {}}, {"col_shift", DType::I4, {{"n", s_->n}}, {}}, {"bits_eff", DType::I4, {{"1", 1}}, {}}};
}

void RareScale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const rare::Scaling r = rare::choose_scaling(part_of(in.get({kInputStage, "a"}), 0, s.m, s.k),
                                               part_of(in.get({kInputStage, "b"}), 0, s.k, s.n), std::log2(s.crt.product().get_d()));
  std::copy(r.row_shift.begin(), r.row_shift.end(), out.data<int32_t>(ref("row_shift")));
  std::copy(r.col_shift.begin(), r.col_shift.end(), out.data<int32_t>(ref("col_shift")));
  out.data<int32_t>(ref("bits_eff"))[0] = r.bits_eff;
}

// bits_eff sets the three-limb extraction's bias 2^bits_eff (its domain |A~| <= 2^bits_eff ends at
// 2^53) and the correction's scale 2^(bits_eff - 15), which must stay above 1 (rare.hpp).
std::optional<AdmittedValues> RareScale::admitted(std::string_view array) const {
  if (array != "bits_eff") return std::nullopt;  // the shifts: any, checked at round
  return AdmittedValues{[](int64_t v) { return v >= 16 && v <= 53; }, "16..53, the range of fp64-emu's three-limb extraction"};
}

void RareScale::verify(const Arrays&, const Arrays&, size_t, Verify, StageReport&) const {}

}  // namespace ozref::schemes::ozaki2
