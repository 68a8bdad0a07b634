#include "schemes/ozaki2/crt_bound.hpp"

#include <cmath>

#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// Whether sum_k M_A[i,k] M_B[k,j] < P/2: Cauchy-Schwarz first (cheap), then the sum itself (80-bit,
// with a margin for its rounding).
bool within_crt_range(const std::vector<long double>& ma, const std::vector<long double>& mb, size_t k, size_t n, size_t i,
                      size_t j, long double cs_bound, long double half_p) {
  if (cs_bound * (1 + 0x1p-40L) < half_p) return true;
  long double sum = 0;
  for (size_t kk = 0; kk < k; ++kk) sum += ma[i * k + kk] * mb[kk * n + j];
  return sum * (1 + static_cast<long double>(k + 2) * 0x1p-63L) < half_p;
}

// |x_re| + |x_im| (exact in 80 bits: the integers are below 2^64) over `count` elements of each part.
std::vector<long double> magnitudes_of(const double* x, size_t parts, size_t count) {
  std::vector<long double> out(count, 0);
  for (size_t p = 0; p < parts; ++p)
    for (size_t v = 0; v < count; ++v) out[v] += std::fabs(static_cast<long double>(x[p * count + v]));
  return out;
}

}  // namespace

void check_crt_bound(const Setup& s, const double* a, const double* b, StageReport& report) {
  const size_t m = s.m, k = s.k, n = s.n;
  const std::vector<long double> ma = magnitudes_of(a, s.S, m * k), mb = magnitudes_of(b, s.S, k * n);
  std::vector<long double> ra(m, 0), cb(n, 0);
  for (size_t i = 0; i < m; ++i)
    for (size_t kk = 0; kk < k; ++kk) ra[i] += ma[i * k + kk] * ma[i * k + kk];
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) cb[j] += mb[kk * n + j] * mb[kk * n + j];
  const long double half_p = static_cast<long double>(s.crt.product().get_d()) / 2 * (1 - 0x1p-50L);
  report.condition_checked = true;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j)
      if (!within_crt_range(ma, mb, k, n, i, j, std::sqrt(ra[i] * cb[j]), half_p)) {
        report.condition_held = false;
        const BlockFrame& f = s.o.block;
        report.violate("the CRT bound sum |A'||B'| < P/2 fails at C" + index3(0, f.row(i), f.col(j)), {0, 2, f.c_element(0, i, j, m, n)});
        return;
      }
}

}  // namespace ozref::schemes::ozaki2
