#include "schemes/ozaki2/crt_bound.hpp"

#include <cmath>
#include <cstdio>
#include <string>


namespace ozref::schemes::ozaki2 {
namespace {

// sum_k M_A[i,k] M_B[k,j] in 80-bit arithmetic.
long double magnitude_sum(const std::vector<long double>& ma, const std::vector<long double>& mb, size_t k, size_t n, size_t i, size_t j) {
  long double sum = 0;
  for (size_t kk = 0; kk < k; ++kk) sum += ma[i * k + kk] * mb[kk * n + j];
  return sum;
}

// Whether sum_k M_A[i,k] M_B[k,j] < P/2: Cauchy-Schwarz first (cheap), then the sum itself (80-bit,
// with a margin for its rounding).
bool within_crt_range(const std::vector<long double>& ma, const std::vector<long double>& mb, size_t k, size_t n, size_t i,
                      size_t j, long double cs_bound, long double half_p) {
  if (cs_bound * (1 + 0x1p-40L) < half_p) return true;
  return magnitude_sum(ma, mb, k, n, i, j) * (1 + static_cast<long double>(k + 2) * 0x1p-63L) < half_p;
}

// "truncate: the CRT bound fails at C'[i 2, j 4]: sum_k |A'[2, k]| |B'[k, 4]| = 2^110.80, P/2 = 2^109.21 (2^1.59 over)".
std::string bound_violation(size_t i, size_t j, long double sum, long double half_p) {
  char sizes[96];
  const double over = static_cast<double>(std::log2(sum) - std::log2(half_p));
  std::snprintf(sizes, sizeof sizes, " = 2^%.2f, P/2 = 2^%.2f (2^%.2f over)", static_cast<double>(std::log2(sum)),
                static_cast<double>(std::log2(half_p)), over);
  const std::string I = std::to_string(i), J = std::to_string(j);
  return "the CRT bound sum_k |A'[i, k]| |B'[k, j]| < P/2 fails at C'[i " + I + ", j " + J + "]: sum_k |A'[" + I + ", k]| |B'[k, " + J + "]|" +
         sizes + ": C' cannot be recovered from its residues; scale A's row " + I + " or B's column " + J + " down";
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
  const BlockFrame& f = s.o.block;
  for (size_t i = 0; i < m; ++i)  // every element that fails is counted
    for (size_t j = 0; j < n; ++j)
      if (!within_crt_range(ma, mb, k, n, i, j, std::sqrt(ra[i] * cb[j]), half_p)) {
        report.condition_held = false;
        report.violate(bound_violation(f.row(i), f.col(j), magnitude_sum(ma, mb, k, n, i, j), half_p), {0, 2, f.c_element(0, i, j, m, n)});
      }
}

}  // namespace ozref::schemes::ozaki2
