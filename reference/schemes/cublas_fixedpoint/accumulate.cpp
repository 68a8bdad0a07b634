// accumulate: C in FP64 as cuBLAS adds it: per K-block v = 0, v += S_d 256^(2p-2-d) 2^(-2 bits)
// for d = 0, 1, ..., p-1 (highest weight first; each term exact, each addition rounded to nearest
// even), then the block's value v 2^(eA+eB), rounded once (below FP64's normal range too: the edge
// probe's sub_ cases), then C = 0, C += that block after block in K order. Orders by product or by
// diagonal over all K, low to high, or the scale applied to each term, fail the records
// (docs/third-party.md).
#include <cmath>

#include "exact/rational_oracle.hpp"
#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/element_name.hpp"
#include "schemes/common/fp64_rounding.hpp"

namespace ozref::schemes::cublas_fixedpoint {
namespace {

// The power of two of diagonal d's term before the block's scale (within FP64's normal range).
int term_exponent(const Setup& s, size_t d) { return 8 * static_cast<int>(2 * s.p - 2 - d) - 2 * s.bits; }

// The block's scale eA + eB for element (i, j) (a trace's exponents: any int32 values).
int block_exponent(const Setup& s, const int32_t* ea, const int32_t* eb, size_t b, size_t i, size_t j) {
  return clamped_exponent(int64_t{ea[b * s.m + i]} + eb[b * s.n + j]);
}

// v + x rounded to the nearest FP64 (ties to even, overflow to infinity), from the exact oracle;
// an infinite v (an earlier overflow) stays, as FP64 adds a finite term to it.
double add_rounded(double v, const mpq_class& x) {
  if (!std::isfinite(v)) return v;
  const mpq_class sum = mpq_class(v) + x;
  const oracle::Rounded r = oracle::round(sum, oracle::binary64(), true);
  return r.overflow ? std::copysign(HUGE_VAL, sum.get_d()) : r.value.get_d();
}

}  // namespace

std::vector<ArrayRef> Accumulate::inputs() const { return {{Gemm::kName, "s"}, {Scale::kName, "row_exp"}, {Scale::kName, "col_exp"}}; }

std::vector<ArraySpec> Accumulate::outputs() const { return {{"c", DType::F8, {{"m", s_->m}, {"n", s_->n}}, {}}}; }

void Accumulate::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const int32_t* sums = in.data<int32_t>({Gemm::kName, "s"});
  const int32_t *ea = in.data<int32_t>({Scale::kName, "row_exp"}), *eb = in.data<int32_t>({Scale::kName, "col_exp"});
  double* c = out.data<double>(ref("c"));
  const size_t mn = s.m * s.n;
#pragma omp parallel for schedule(static)
  for (size_t x = 0; x < mn; ++x) {
    const size_t i = x / s.n, j = x % s.n;
    double total = 0;
    for (size_t b = 0; b < s.blocks; ++b) {
      double v = 0;
      for (size_t d = 0; d < s.p; ++d) v += std::ldexp(static_cast<double>(sums[(b * s.p + d) * mn + x]), term_exponent(s, d));
      total += std::ldexp(v, block_exponent(s, ea, eb, b, i, j));  // ldexp rounds once to nearest even
    }
    c[x] = total;
  }
}

// Contract (full): C is that sum in that order with every addition and every block's scaling
// correctly rounded from its exact operands (GMP rationals), whatever the host's FP64 does.
void Accumulate::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const int32_t* sums = in.data<int32_t>({Gemm::kName, "s"});
  const int32_t *ea = in.data<int32_t>({Scale::kName, "row_exp"}), *eb = in.data<int32_t>({Scale::kName, "col_exp"});
  const double* c = out.data<double>(ref("c"));
  const size_t mn = s.m * s.n;
  parallel_check(mn, report, [&](size_t x0, size_t x1, StageReport& part) {
    for (size_t x = x0; x < x1; ++x) {
      const size_t i = x / s.n, j = x % s.n;
      double total = 0;
      for (size_t b = 0; b < s.blocks; ++b) {
        double v = 0;
        for (size_t d = 0; d < s.p; ++d) v = add_rounded(v, mpq_class(sums[(b * s.p + d) * mn + x]) * oracle::pow2(term_exponent(s, d)));
        const double w = add_rounded(0, mpq_class(v) * oracle::pow2(block_exponent(s, ea, eb, b, i, j)));  // v 2^(eA+eB), rounded
        total = std::isfinite(w) ? add_rounded(total, mpq_class(w)) : total + w;
      }
      if (std::bit_cast<uint64_t>(total) != std::bit_cast<uint64_t>(c[x]))
        part.violate(element_name("accumulate.c", {{"i", i}, {"j", j}}) + " is not the FP64 sum of its blocks' diagonals in cuBLAS's order");
    }
  });
}

}  // namespace ozref::schemes::cublas_fixedpoint
