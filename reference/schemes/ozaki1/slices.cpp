// slices: p slices of each scaled element, most significant first (slicing.hpp: ozIMMU's signed
// w-bit slices, cuBLAS-style signed leading slice and unsigned bytes, or base-13 digits).
#include "schemes/ozaki1/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::ozaki1 {
namespace {

// A's elements by rows with their row's shift, B's with their column's: (element, its shift).
struct Side {
  const char *name, *shift;
  bool by_row;
};
constexpr Side kSides[] = {{"a", "row_shift", true}, {"b", "col_shift", false}};

}  // namespace

std::vector<ArrayRef> Slices::inputs() const {
  return {{s_->source(), "a"}, {s_->source(), "b"}, {Scale::kName, "row_shift"}, {Scale::kName, "col_shift"}};
}

std::vector<ArraySpec> Slices::outputs() const {
  const Setup& s = *s_;
  return {{"a", DType::I1, {{"p", s.p}, {"m", s.m}, {"k", s.k}}, {}}, {"b", DType::I1, {{"p", s.p}, {"k", s.k}, {"n", s.n}}, {}}};
}

// The slices go into the GEMMs: only values their instruction encodes (base-13 digits on FP4).
std::optional<AdmittedValues> Slices::admitted(std::string_view) const { return encodable(s_->lead()); }

void Slices::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  for (const Side& side : kSides) {
    const size_t cols = side.by_row ? s.k : s.n, count = (side.by_row ? s.m : s.k) * cols;
    const double* x = in.data<double>({s.source(), side.name});
    const int32_t* shift = in.data<int32_t>({Scale::kName, side.shift});
    int8_t* slices = out.data<int8_t>(ref(side.name));
#pragma omp parallel for schedule(static)
    for (size_t v = 0; v < count; ++v) s.sl.slice(x[v], shift[side.by_row ? v / cols : v % cols], &slices[v], count);
  }
}

// Contract (cheap): the slices of every element are what the slicing promises (range, sign or
// digit set, and they add back to the scaled element truncated or rounded).
void Slices::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  for (const Side& side : kSides) {
    const size_t cols = side.by_row ? s.k : s.n, count = (side.by_row ? s.m : s.k) * cols;
    const double* x = in.data<double>({s.source(), side.name});
    const int32_t* shift = in.data<int32_t>({Scale::kName, side.shift});
    const int8_t* slices = out.data<int8_t>(ref(side.name));
    parallel_check(count, report, [&](size_t v0, size_t v1, StageReport& part) {
      for (size_t v = v0; v < v1; ++v) {
        const std::string why = s.sl.check(x[v], shift[side.by_row ? v / cols : v % cols], &slices[v], count);
        if (!why.empty()) part.violate((side.by_row ? element_name("A", {{"i", v / cols}, {"k", v % cols}}) : element_name("B", {{"k", v / cols}, {"j", v % cols}})) + ": " + why);
      }
    });
  }
}

}  // namespace ozref::schemes::ozaki1
