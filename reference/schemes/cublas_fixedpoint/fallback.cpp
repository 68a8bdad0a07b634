// fallback: what cuBLAS 13.1 computes where the DYNAMIC control's count exceeds its max mantissa bit
// count (79 unless set): native FP64, decoded from the edge probe's records on the H200
// (docs/third-party.md, "Above the max: native FP64"). K is cut into `parts` ranges of whole
// 16-element granules (balanced, the extra granules to the first ranges); each range is a chain of
// FMAs from 0 in k order, and C = 0 + range 0 + range 1 + ... in order, each addition rounded to
// nearest even. The part count s minimizes ceil(G / s) + (7/4) s over s >= 2, or is 1 where G (no
// split) costs no more, for G = ceil(k / 16) granules: fitted to the 17 granule counts measured
// (G = 2 .. 512; any weight in [5/3, 2) fits them all, 7/4 is its middle); elsewhere an extrapolation.
#include <algorithm>
#include <cmath>

#include "exact/rational_oracle.hpp"
#include "schemes/cublas_fixedpoint/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/element_name.hpp"

namespace ozref::schemes::cublas_fixedpoint {
namespace {

constexpr size_t kGranule = 16;

// The k range [begin, end) of each part, in order.
std::vector<std::pair<size_t, size_t>> parts_of(size_t k) {
  const size_t granules = (k + kGranule - 1) / kGranule;
  size_t parts = 1, cost = 4 * granules;  // costs in quarters; ties keep the fewer parts
  for (size_t s = 2; s <= granules; ++s)
    if (const size_t c = 4 * ((granules + s - 1) / s) + 7 * s; c < cost) parts = s, cost = c;
  std::vector<std::pair<size_t, size_t>> out;
  for (size_t s = 0, begin = 0; s < parts; ++s) {
    const size_t length = kGranule * (granules / parts + (s < granules % parts ? 1 : 0));
    out.emplace_back(begin, std::min(k, begin + length));
    begin += length;
  }
  return out;
}

// x rounded to the nearest FP64 (ties to even, overflow to infinity), from the exact oracle.
double rounded(const mpq_class& x) {
  const oracle::Rounded r = oracle::round(x, oracle::binary64(), true);
  return r.overflow ? std::copysign(HUGE_VAL, x.get_d()) : r.value.get_d();
}

// a b + c rounded once (an FMA), or the IEEE result where c is already infinite.
double fma_exact(double a, double b, double c) { return std::isfinite(c) ? rounded(mpq_class(a) * mpq_class(b) + mpq_class(c)) : c; }

double sum_exact(double x, double y) {
  return std::isfinite(x) && std::isfinite(y) ? rounded(mpq_class(x) + mpq_class(y)) : x + y;
}

}  // namespace

std::vector<ArrayRef> Fallback::inputs() const { return {{kInputStage, "a"}, {kInputStage, "b"}}; }

std::vector<ArraySpec> Fallback::outputs() const { return {{"c", DType::F8, {{"m", s_->m}, {"n", s_->n}}, {}}}; }

void Fallback::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const double *a = in.data<double>({kInputStage, "a"}), *b = in.data<double>({kInputStage, "b"});
  double* c = out.data<double>(ref("c"));
  const auto parts = parts_of(s.k);
#pragma omp parallel for schedule(static)
  for (size_t x = 0; x < s.m * s.n; ++x) {
    const size_t i = x / s.n, j = x % s.n;
    double total = 0;
    for (const auto& [begin, end] : parts) {
      double part = 0;
      for (size_t t = begin; t < end; ++t) part = std::fma(a[i * s.k + t], b[t * s.n + j], part);
      total += part;
    }
    c[x] = total;
  }
}

// Contract (full): C is that sum in that order with every FMA and addition correctly rounded from
// its exact operands (GMP rationals), whatever the host's FP64 does.
void Fallback::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const double *a = in.data<double>({kInputStage, "a"}), *b = in.data<double>({kInputStage, "b"});
  const double* c = out.data<double>(ref("c"));
  const auto parts = parts_of(s.k);
  parallel_check(s.m * s.n, report, [&](size_t x0, size_t x1, StageReport& part_report) {
    for (size_t x = x0; x < x1; ++x) {
      const size_t i = x / s.n, j = x % s.n;
      double total = 0;
      for (const auto& [begin, end] : parts) {
        double part = 0;
        for (size_t t = begin; t < end; ++t) part = fma_exact(a[i * s.k + t], b[t * s.n + j], part);
        total = sum_exact(total, part);
      }
      if (std::bit_cast<uint64_t>(total) != std::bit_cast<uint64_t>(c[x]))
        part_report.violate(element_name("fallback.c", {{"i", i}, {"j", j}}) + " is not the FP64 split-K sum of FMA chains in cuBLAS's fallback order");
    }
  });
}

}  // namespace ozref::schemes::cublas_fixedpoint
