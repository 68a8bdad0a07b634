#include "exact/exact_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <span>
#include <stdexcept>

#include "common/blas.hpp"
#include "exact/specials.hpp"
#include "exact/wide_accumulator.hpp"
#include "formats/encode.hpp"


namespace ozref {
namespace {

constexpr long kMaxSlicePairs = 256;               // beyond this the direct path is cheaper
constexpr double kMaxSliceBytes = 4.0 * (1 << 30);  // slice buffers the slice path may allocate

// A finite FP64 as integer significand * 2^exponent with trailing zeros stripped (sig odd or 0).
struct Parts {
  bool negative = false;
  uint64_t sig = 0;
  int exp = 0;
  int top() const { return exp + std::bit_width(sig); }  // one past the leading bit's position
};

Parts parts_of(double x) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  Parts p;
  p.negative = bits >> 63;
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
  if (field == 0x7FF || (field == 0 && fraction == 0)) return p;  // non-finite or zero: no bits
  p.sig = field ? (fraction | (uint64_t{1} << 52)) : fraction;
  p.exp = (field ? field : 1) - 1075;
  const int tz = std::countr_zero(p.sig);
  p.sig >>= tz;
  p.exp += tz;
  return p;
}

// Where the bits of one row of A (or column of B) lie, ignoring non-finite entries.
struct LineExtent {
  int top = INT_MIN;   // one past the highest set bit over the line
  int low = INT_MAX;   // the lowest set bit over the line
  bool nonfinite = false;
  bool empty() const { return top == INT_MIN; }
};

LineExtent line_extent(const double* x, size_t stride, size_t count) {
  LineExtent e;
  for (size_t i = 0; i < count; ++i) {
    const double v = x[i * stride];
    if (!std::isfinite(v)) {
      e.nonfinite = true;
      continue;
    }
    const Parts p = parts_of(v);
    if (!p.sig) continue;
    e.top = std::max(e.top, p.top());
    e.low = std::min(e.low, p.exp);
  }
  return e;
}

int slices_needed(const LineExtent& e, int beta) {
  return e.empty() ? 0 : (e.top - e.low + beta - 1) / beta;
}

// The beta-bit window [lo, lo + beta) of |x|, in units of 2^lo, signed like x.
double slice_value(const Parts& p, int lo, int beta) {
  if (!p.sig) return 0.0;
  const uint64_t mask = (uint64_t{1} << beta) - 1;
  uint64_t bits;
  const int d = p.exp - lo;
  if (d >= beta) return 0.0;
  if (d >= 0) {
    bits = (p.sig & (mask >> d)) << d;
  } else {
    bits = -d >= 64 ? 0 : (p.sig >> -d) & mask;
  }
  const double v = static_cast<double>(bits);
  return p.negative ? -v : v;
}

int ceil_log2(size_t k) { return k <= 1 ? 0 : std::bit_width(k - 1); }

size_t words_for_bits(long bits) { return static_cast<size_t>((bits + 63) / 64); }

// Rounds the accumulator (value acc * 2^base) into the output element `idx`. Destroys acc.
void finalize(std::span<uint64_t> acc, int base, ExactProduct& out, size_t idx) {
  const FormatSpec& f64 = format_spec(FormatId::FP64);
  const FormatSpec& f32 = format_spec(FormatId::FP32);
  bool sticky = false;
  const ExactValue v = leading_bits(acc, base, sticky);
  if (v.cls == FloatClass::Zero) {
    out.nearest[idx] = 0.0;
    out.residual[idx] = 0.0;
    out.residual_exact[idx] = 1;
    out.nearest_fp32[idx] = 0.0f;
    return;
  }
  const EncodeResult r64 = encode(f64, v, Rounding::NearestEven, Overflow::NoSat, sticky);
  const EncodeResult r32 = encode(f32, v, Rounding::NearestEven, Overflow::NoSat, sticky);
  out.nearest[idx] = std::bit_cast<double>(r64.bits);
  out.nearest_fp32[idx] = std::bit_cast<float>(static_cast<uint32_t>(r32.bits));
  if (r64.overflow) {
    out.residual[idx] = 0.0;
    out.residual_exact[idx] = 0;
    return;
  }
  if (!r64.inexact) {
    out.residual[idx] = 0.0;
    out.residual_exact[idx] = 1;
    return;
  }
  // acc -= nearest. The rounded value is a multiple of 2^base unless it equals the exact value
  // (an exact value with fewer than 53 significant bits), which the branch above returned.
  const Parts n = parts_of(out.nearest[idx]);
  accumulate(acc, !n.negative, n.sig, static_cast<unsigned>(n.exp - base));
  const ExactValue rest = leading_bits(acc, base, sticky);
  const EncodeResult rr = encode(f64, rest, Rounding::NearestEven, Overflow::NoSat, sticky);
  out.residual[idx] = std::bit_cast<double>(rr.bits);
  out.residual_exact[idx] = !rr.inexact;
}

struct Analysis {
  std::vector<LineExtent> rows, cols;
  int beta = 0, slices_a = 0, slices_b = 0;
};

Analysis analyse(const Matrix<double>& a, const Matrix<double>& b) {
  Analysis an;
  const size_t m = a.rows, k = a.cols, n = b.cols;
  an.rows.resize(m);
  an.cols.resize(n);
  an.beta = (53 - ceil_log2(k)) / 2;
  if (k == 0) return an;  // every line empty (and no pointer into an empty matrix)
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i) an.rows[i] = line_extent(a.data.data() + i * k, 1, k);
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < n; ++j) an.cols[j] = line_extent(b.data.data() + j, n, k);
  for (const auto& e : an.rows) an.slices_a = std::max(an.slices_a, slices_needed(e, an.beta));
  for (const auto& e : an.cols) an.slices_b = std::max(an.slices_b, slices_needed(e, an.beta));
  return an;
}

void slice_path(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an,
                ExactProduct& out) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
  const int beta = an.beta, sa = an.slices_a, sb = an.slices_b;
  auto top_of = [](const LineExtent& e) { return e.empty() ? 0 : e.top; };

  std::vector<std::vector<double>> as(sa, std::vector<double>(m * k));
  std::vector<std::vector<double>> bs(sb, std::vector<double>(k * n));
  std::vector<uint8_t> a_used(sa, 0), b_used(sb, 0);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i) {
    const int top = top_of(an.rows[i]);
    for (size_t kk = 0; kk < k; ++kk) {
      const double x = a.data[i * k + kk];
      const Parts p = std::isfinite(x) ? parts_of(x) : Parts{};
      for (int s = 0; s < sa; ++s) as[s][i * k + kk] = slice_value(p, top - (s + 1) * beta, beta);
    }
  }
#pragma omp parallel for schedule(static)
  for (size_t kk = 0; kk < k; ++kk) {
    for (size_t j = 0; j < n; ++j) {
      const double x = b.data[kk * n + j];
      const Parts p = std::isfinite(x) ? parts_of(x) : Parts{};
      const int top = top_of(an.cols[j]);
      for (int t = 0; t < sb; ++t) bs[t][kk * n + j] = slice_value(p, top - (t + 1) * beta, beta);
    }
  }
  for (int s = 0; s < sa; ++s)
    a_used[s] = std::any_of(as[s].begin(), as[s].end(), [](double v) { return v != 0.0; });
  for (int t = 0; t < sb; ++t)
    b_used[t] = std::any_of(bs[t].begin(), bs[t].end(), [](double v) { return v != 0.0; });

  // Slice products with the same s + t share a weight 2^((sa + sb - 2 - s - t) * beta); each is an
  // integer below 2^53, and at most min(sa, sb) <= 16 of them share a diagonal, so they sum
  // exactly in an int64 (below 2^57) before the wide accumulator.
  const int diagonals = sa + sb - 1;
  std::vector<std::vector<int64_t>> diag(diagonals, std::vector<int64_t>(m * n, 0));
  // Each OpenMP thread runs single-threaded DGEMMs on its own band of rows: OpenBLAS's own
  // threads would compete with OpenMP's spinning ones on a small machine.
  openblas_set_num_threads(1);
#pragma omp parallel
  {
    const size_t threads = size_t(omp_get_num_threads()), me = size_t(omp_get_thread_num());
    const size_t row0 = m * me / threads, rows = m * (me + 1) / threads - row0;
    std::vector<double> c(rows * n);
    for (int s = 0; s < sa && rows; ++s) {
      for (int t = 0; t < sb; ++t) {
        if (!a_used[s] || !b_used[t]) continue;
        cblas_dgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, int(rows), int(n), int(k), 1.0,
                    as[s].data() + row0 * k, int(k), bs[t].data(), int(n), 0.0, c.data(), int(n));
        int64_t* d = diag[s + t].data() + row0 * n;
        for (size_t idx = 0; idx < rows * n; ++idx) d[idx] += static_cast<int64_t>(c[idx]);
      }
    }
  }
  const long bits = 53 + long{diagonals - 1} * beta + ceil_log2(size_t(std::min(sa, sb))) + 3;
  const size_t words = words_for_bits(bits);
#pragma omp parallel
  {
    std::vector<uint64_t> acc(words);
#pragma omp for schedule(static)
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        const size_t idx = i * n + j;
        std::fill(acc.begin(), acc.end(), 0);
        for (int d = 0; d < diagonals; ++d)
          accumulate(acc, diag[d][idx], unsigned(diagonals - 1 - d) * unsigned(beta));
        const int base = top_of(an.rows[i]) + top_of(an.cols[j]) - (sa + sb) * beta;
        finalize(acc, base, out, idx);
      }
  }
}

void direct_path(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an,
                 ExactProduct& out) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
#pragma omp parallel
  {
    std::vector<uint64_t> acc;
#pragma omp for schedule(dynamic, 4)
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) {
        const LineExtent& r = an.rows[i];
        const LineExtent& c = an.cols[j];
        if (r.empty() || c.empty()) {
          acc.assign(1, 0);
          finalize(acc, 0, out, i * n + j);
          continue;
        }
        const int base = r.low + c.low;
        const long bits = long{r.top} + c.top - base + ceil_log2(k) + 2;
        acc.assign(words_for_bits(bits), 0);
        for (size_t kk = 0; kk < k; ++kk) {
          const double x = a.data[i * k + kk], y = b.data[kk * n + j];
          if (!std::isfinite(x) || !std::isfinite(y)) continue;
          const Parts p = parts_of(x), q = parts_of(y);
          if (!p.sig || !q.sig) continue;
          accumulate(acc, p.negative != q.negative, u128{p.sig} * q.sig,
                     static_cast<unsigned>(p.exp + q.exp - base));
        }
        finalize(acc, base, out, i * n + j);
      }
    }
  }
}

void apply_specials(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an,
                    ExactProduct& out) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      if (!an.rows[i].nonfinite && !an.cols[j].nonfinite) continue;
      const SpecialResult s = dot_special(a.data.data() + i * k, 1, b.data.data() + j, n, k);
      if (s == SpecialResult::None) continue;
      const double v = s == SpecialResult::NaN            ? std::nan("")
                       : s == SpecialResult::PlusInfinity ? HUGE_VAL
                                                          : -HUGE_VAL;
      const size_t idx = i * n + j;
      out.nearest[idx] = v;
      out.nearest_fp32[idx] = static_cast<float>(v);
      out.residual[idx] = 0.0;
      out.residual_exact[idx] = 1;
    }
}

}  // namespace

ExactProduct exact_gemm(const Matrix<double>& a, const Matrix<double>& b,
                        const ExactGemmOptions& options) {
  if (a.cols != b.rows) throw std::invalid_argument("exact_gemm: inner dimensions differ");
  const int saved_threads = omp_get_max_threads();
  const int saved_blas_threads = openblas_get_num_threads();
  const int threads = options.threads > 0 ? options.threads : saved_threads;
  omp_set_num_threads(threads);

  ExactProduct out;
  out.rows = a.rows;
  out.cols = b.cols;
  out.depth = a.cols;
  const size_t mn = a.rows * b.cols;
  out.nearest.assign(mn, std::nan(""));  // canary: every element must be written
  out.residual.assign(mn, std::nan(""));
  out.residual_exact.assign(mn, 0);
  out.nearest_fp32.assign(mn, std::nanf(""));

  const Analysis an = analyse(a, b);
  const double slice_bytes =
      8.0 * (double(an.slices_a) * a.rows * a.cols + double(an.slices_b) * b.rows * b.cols);
  const bool use_slices = !options.force_direct && an.slices_a > 0 && an.slices_b > 0 &&
                          long{an.slices_a} * an.slices_b <= kMaxSlicePairs &&
                          slice_bytes <= kMaxSliceBytes;
  if (use_slices) {
    out.slices_a = an.slices_a;
    out.slices_b = an.slices_b;
    slice_path(a, b, an, out);
  } else {
    out.direct_path = true;
    direct_path(a, b, an, out);
  }
  apply_specials(a, b, an, out);
  omp_set_num_threads(saved_threads);
  openblas_set_num_threads(saved_blas_threads);
  return out;
}

}  // namespace ozref
