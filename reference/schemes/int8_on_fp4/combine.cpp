// combine: C = sum 13^(i+j) C_ij, wrapped to INT32 as the INT8 MMA wraps.
#include "schemes/int8_on_fp4/stages.hpp"
#include "schemes/common/element_name.hpp"

namespace ozref::schemes::int8_on_fp4 {

std::vector<ArrayRef> Combine::inputs() const { return {{Gemm::kName, "c"}}; }

std::vector<ArraySpec> Combine::outputs() const { return {{"c", DType::I4, {{"m", s_->m}, {"n", s_->n}}, {}}}; }

void Combine::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const uint32_t* c = in.data<uint32_t>({Gemm::kName, "c"});
  int32_t* result = out.data<int32_t>(ref("c"));
  constexpr int64_t kWeight[2 * kLimbs - 1] = {1, 13, 169, 2197, 28561};
  const size_t mn = s.m * s.n;
#pragma omp parallel for schedule(static)
  for (size_t x = 0; x < mn; ++x) {
    uint64_t sum = 0;  // modulo 2^64: a trace's outputs (up to 2^54) times 13^4 may exceed int64, and only 32 bits stay
    for (size_t g = 0; g < kLimbs * kLimbs; ++g) {
      const int64_t v = s.lowp.integer_output(c[g * mn + x]);
      sum += static_cast<uint64_t>(kWeight[g / kLimbs + g % kLimbs]) * static_cast<uint64_t>(v == kNotInteger ? 0 : v);  // a non-integer: the gemm stage reports it
    }
    result[x] = static_cast<int32_t>(static_cast<uint32_t>(sum));  // INT32 wraparound, as the INT8 MMA
  }
}

// Contract (cheap): C is the sum of the exact integers of the GEMM outputs weighted by 13^(i+j),
// wrapped to INT32 (a non-integer output is a violation). With the digits adding back to the
// values and every GEMM exact, this is bit for bit the INT8 GEMM of A and B.
void Combine::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const uint32_t* g = in.data<uint32_t>({Gemm::kName, "c"});
  const int32_t* c = out.data<int32_t>(ref("c"));
  const size_t mn = s.m * s.n;
  int64_t power[2 * kLimbs - 1] = {1};
  for (size_t d = 1; d < 2 * kLimbs - 1; ++d) power[d] = 13 * power[d - 1];
  for (size_t x = 0; x < mn; ++x) {
    uint64_t sum = 0;  // modulo 2^64, as above
    bool integral = true;
    for (size_t i = 0; i < kLimbs; ++i)
      for (size_t j = 0; j < kLimbs; ++j) {
        const int64_t v = s.lowp.integer_output(g[(i * kLimbs + j) * mn + x]);
        integral = integral && v != kNotInteger;
        sum += static_cast<uint64_t>(power[i + j]) * static_cast<uint64_t>(integral ? v : 0);
      }
    const int32_t want = static_cast<int32_t>(static_cast<uint32_t>(sum));
    if (!integral || want != c[x])
      report.violate(element_name("combine.c", {{"i", x / s.n}, {"j", x % s.n}}) + " = " + std::to_string(c[x]) +
                     (integral ? ", the weighted sum of the GEMM outputs wraps to " + std::to_string(want) : " combines a non-integer GEMM output"));
  }
}

}  // namespace ozref::schemes::int8_on_fp4
