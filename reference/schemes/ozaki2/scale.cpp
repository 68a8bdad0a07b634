// scale: the power-of-two shifts of A's rows and B's columns (scaling.hpp: fast, accurate from the
// bound GEMM, gemmul8-fast). A free choice: any shifts for which truncate's CRT bound holds are
// valid, so the stage has no contract of its own.
#include "schemes/ozaki2/scaling.hpp"
#include "schemes/ozaki2/stages.hpp"

namespace ozref::schemes::ozaki2 {

std::vector<ArrayRef> Scale::inputs() const {
  if (s_->o.mode == ScalingMode::Accurate) return {{Bound::kName, "row_exp"}, {Bound::kName, "col_exp"}, {Bound::kName, "c"}};
  return {{kInputStage, "a"}, {kInputStage, "b"}};
}

std::vector<ArraySpec> Scale::outputs() const {
  return {{"row_shift", DType::I4, {{"m", s_->m}}, {}}, {"col_shift", DType::I4, {{"n", s_->n}}, {}}};
}

void Scale::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  int* row = out.data<int32_t>(ref("row_shift"));
  int* col = out.data<int32_t>(ref("col_shift"));
  if (s.o.mode == ScalingMode::Accurate) {
    bound_shifts(in.data<uint32_t>({Bound::kName, "c"}), s.m, s.n, in.data<int32_t>({Bound::kName, "row_exp"}),
                 in.data<int32_t>({Bound::kName, "col_exp"}), s.log2_bound(), s.lowp, row, col, s.o.block);
    return;
  }
  const Magnitudes a = magnitudes(in.get({kInputStage, "a"}), s.S, s.m, s.k);
  const Magnitudes b = magnitudes(in.get({kInputStage, "b"}), s.S, s.k, s.n);
  if (s.o.mode == ScalingMode::Fast) fast_shifts(a.view, b.view, s.log2_bound(), row, col);
  else gemmul8_fast_shifts(a.view, b.view, s.log2_bound(), row, col);
}

void Scale::verify(const Arrays&, const Arrays&, size_t, Verify, StageReport&) const {}

}  // namespace ozref::schemes::ozaki2
