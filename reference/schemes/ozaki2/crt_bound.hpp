// The exactness condition of Ozaki-II, checked by truncate and round: for the integers A', B' (one
// part each, or re and im), sum_k (|A'_re| + |A'_im|)_ik (|B'_re| + |B'_im|)_kj < P/2 for every
// (i, j), so that C' lies in the CRT range. Cauchy-Schwarz first (80-bit sums with a margin),
// then, where that is not enough, the sum itself. Marks the report's condition as checked, and as
// failed (with a violation naming the first element) when it fails.
#pragma once
#include "schemes/ozaki2/setup.hpp"

namespace ozref::schemes::ozaki2 {

void check_crt_bound(const Setup& s, const double* a, const double* b, StageReport& report);

}  // namespace ozref::schemes::ozaki2
