// limbs: three greedy base-13 digits of each INT8 value (|x| <= 128 < X_3 = 732; digits at most 8),
// least significant first, each an E2M1 value of half of it.
#include "schemes/common/base13.hpp"
#include "schemes/int8_on_fp4/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/lowp_operands.hpp"

namespace ozref::schemes::int8_on_fp4 {
namespace {

struct Side {
  const char *array, *label;
};
constexpr Side kSides[] = {{"a", "A"}, {"b", "B"}};

}  // namespace

std::vector<ArrayRef> Limbs::inputs() const { return {{kInputStage, "a"}, {kInputStage, "b"}}; }

std::vector<ArraySpec> Limbs::outputs() const {
  const Setup& s = *s_;
  return {{"a", DType::I1, {{"3", kLimbs}, {"m", s.m}, {"k", s.k}}, {}}, {"b", DType::I1, {{"3", kLimbs}, {"k", s.k}, {"n", s.n}}, {}}};
}

// The limbs go into the FP4 GEMMs: only values their instruction encodes.
std::optional<AdmittedValues> Limbs::admitted(std::string_view) const { return encodable(s_->lowp); }

void Limbs::compute(const Arrays& in, Arrays& out, size_t) const {
  for (const Side& side : kSides) {
    const Tensor& x = in.get({kInputStage, side.array});
    int8_t* limbs = out.data<int8_t>(ref(side.array));
    const size_t count = x.elements();
#pragma omp parallel for schedule(static)
    for (size_t v = 0; v < count; ++v) {
      int8_t d[kLimbs];
      to_base13(static_cast<int64_t>(x.as<double>()[v]), kLimbs, d);  // INT8 values: always fits
      for (size_t q = 0; q < kLimbs; ++q) limbs[q * count + v] = d[q];
    }
  }
}

// Contract (cheap): digits in S with an exact e2m1 encoding that add back to the value.
void Limbs::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  for (const Side& side : kSides) {
    const Tensor& x = in.get({kInputStage, side.array});
    const int8_t* limbs = out.data<int8_t>(ref(side.array));
    const size_t count = x.elements();
    parallel_check(count, report, [&](size_t v0, size_t v1, StageReport& part) {
      for (size_t v = v0; v < v1; ++v) {
        const int64_t value = static_cast<int64_t>(x.as<double>()[v]);
        int64_t back = 0;
        for (size_t q = kLimbs; q-- > 0;) {
          const int8_t d = limbs[q * count + v];
          back = back * 13 + d;
          if (!in_digit_set(d) || !s_->lowp.representable(d))
            part.violate(std::string(side.label) + " digit " + std::to_string(d) + " of " + std::to_string(value) + " is not in S");
        }
        if (back != value)
          part.violate(std::string(side.label) + " digits of " + std::to_string(value) + " add back to " + std::to_string(back));
      }
    });
  }
}

}  // namespace ozref::schemes::int8_on_fp4
