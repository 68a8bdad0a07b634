#include "exact/exact_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <limits>
#include <type_traits>
#include <span>
#include <stdexcept>

#include "common/blas.hpp"
#include "common/phase_clock.hpp"
#include "common/vector_clones.hpp"
#include "exact/crt_gemm.hpp"
#include "exact/exact_parts.hpp"
#include "exact/scaled_long_double.hpp"
#include "exact/specials.hpp"
#include "formats/wide_accumulator.hpp"
#include "formats/encode.hpp"


namespace ozref::exact_parts {


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

// Adds the element v to its line's extent.
inline void extend(LineExtent& e, double v) {
  if (!std::isfinite(v)) {
    e.nonfinite = true;
    return;
  }
  const Parts p = parts_of(v);
  if (!p.sig) return;
  e.top = std::max(e.top, p.top());
  e.low = std::min(e.low, p.exp);
  e.l1 += std::fabs(v);
  e.l2 += v * v;
}

int ceil_log2(size_t k) { return k <= 1 ? 0 : std::bit_width(k - 1); }

size_t words_for_bits(long bits) { return static_cast<size_t>((bits + 63) / 64); }

// 2^e in T (double or float) for e in T's normal exponent range.
template <typename T>
T power_of_two(int e) {
  if constexpr (sizeof(T) == 8) return std::bit_cast<double>(uint64_t(e + 1023) << 52);
  else return std::bit_cast<float>(uint32_t(e + 127) << 23);
}

// v, plus `sticky`, rounded to nearest-even in FP64 (T = double) or FP32. Where the result is
// certainly normal the hardware converts the 64-bit significand, `sticky` folded into its last bit
// (leading_bits sets it only with all 64 bits filled, so that bit lies below the rounding point);
// elsewhere (subnormal, overflow) encode() rounds.
template <typename T>
[[gnu::always_inline]] inline EncodeResult nearest(const FormatSpec& spec, const ExactValue& v, bool sticky) {
  constexpr int digits = std::numeric_limits<T>::digits;
  constexpr int emin = std::numeric_limits<T>::min_exponent - 1, emax = std::numeric_limits<T>::max_exponent - 1;
  const int width = std::bit_width(v.significand);
  const int lead = v.exponent + width - 1;  // rounding may carry it up by one
  if (lead < emin || lead + 1 > emax) return encode(spec, v, Rounding::NearestEven, Overflow::NoSat, sticky);
  const T rounded = static_cast<T>(v.significand | uint64_t{sticky});
  // Scaling a normal result by a power of two is exact; the multiplication is faster than ldexp.
  const T magnitude = v.exponent >= emin && v.exponent <= emax ? rounded * power_of_two<T>(v.exponent)
                                                               : std::ldexp(rounded, v.exponent);
  EncodeResult r;
  using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  r.bits = std::bit_cast<Bits>(v.negative ? -magnitude : magnitude);
  r.inexact = sticky || (width > digits && (v.significand & ((uint64_t{1} << (width - digits)) - 1)));
  return r;
}

// v, plus `sticky` below its last bit, in the x87 80-bit format rounded to odd: its 64-bit
// significand with the sticky bit folded into the last bit. The relative error is below 2^-63 at
// every magnitude (the format's exponent reaches 2^-16445, far below any residual of a product of
// FP64 values), and rounding the result once more to FP64, subnormal or not, gives v's correctly
// rounded FP64 value (round-to-odd at 64 bits, then nearest at 53 or fewer).
long double rounded_to_odd(const ExactValue& v, bool sticky) {
  static_assert(std::numeric_limits<long double>::digits == 64, "the residual needs the x87 80-bit format");
  const long double magnitude = scaled_long_double(v.significand | uint64_t{sticky}, v.exponent);
  return v.negative ? -magnitude : magnitude;
}

// The top 128 bits of a magnitude (its leading bit at bit 127): magnitude = window * 2^lsb plus,
// when `below`, a positive amount under 2^lsb (lsb counted from the magnitude's bit 0).
struct Window {
  u128 bits = 0;
  long lsb = 0;
  bool below = false;
};

// For a nonzero magnitude whose highest nonzero word is top - 1.
Window window_of(std::span<const uint64_t> magnitude, size_t top) {
  const long msb = long(top - 1) * 64 + std::bit_width(magnitude[top - 1]) - 1;
  auto word = [&](size_t i) { return i < top ? u128{magnitude[i]} : u128{0}; };
  Window w;
  if (msb < 127) {  // all of it fits: no bits below
    w.bits = (word(1) << 64 | word(0)) << (127 - msb);
    w.lsb = msb - 127;
    return w;
  }
  w.lsb = msb - 127;
  const size_t lw = size_t(w.lsb / 64);
  const unsigned lb = unsigned(w.lsb % 64);
  w.bits = (word(lw + 1) << 64 | word(lw)) >> lb;
  if (lb) w.bits |= word(lw + 2) << (128 - lb);
  w.below = lb && (magnitude[lw] & ((uint64_t{1} << lb) - 1));
  for (size_t i = 0; i < lw && !w.below; ++i) w.below = magnitude[i] != 0;
  return w;
}

// |E| - |nearest| from the window alone, where that decides its rounding: E's magnitude is
// window * 2^lsb plus something in [0, 2^lsb) (nonzero when `below`), and `rounded`, its FP64
// nearest (normal: 53 bits), a multiple of 2^(lsb + 75); so the difference is d * 2^lsb plus that,
// |d| <= 2^75. When |d| >= 2^64 the part below lies under the residual's 64 bits and only acts as
// the sticky bit of d (or of |d| - 1 when d is negative); with nothing below, any d is exact.
// Returns false where the multi-word residual is needed.
bool window_residual(const Window& w, int base, bool negative, double rounded, long double& residual, bool& exact) {
  const uint64_t bits = std::bit_cast<uint64_t>(rounded) & ~(uint64_t{1} << 63);
  const long field = long(bits >> 52);
  const long shift = field - 1075 - (base + w.lsb);  // nearest's last bit in window units
  if (field == 0 || (shift != 75 && shift != 76)) return false;
  const u128 sig = u128((bits & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52)) << shift;  // 2^128 wraps to 0
  const __int128 d = static_cast<__int128>(w.bits - sig);                                  // |d| <= 2^75
  const u128 mag = d < 0 ? u128(-d) - u128{w.below} : u128(d);
  if (mag == 0 || (w.below && mag >> 64 == 0)) return false;
  const int width = 128 - (uint64_t(mag >> 64) ? std::countl_zero(uint64_t(mag >> 64)) : 64 + std::countl_zero(uint64_t(mag)));
  ExactValue rest;
  rest.cls = FloatClass::Normal;
  rest.negative = (d < 0) != negative;
  // The top 64 bits of mag (all filled, so that the sticky bit lies below the rounding point).
  rest.significand = width > 64 ? uint64_t(mag >> (width - 64)) : uint64_t(mag) << (64 - width);
  rest.exponent = base + int(w.lsb) + width - 64;
  const bool sticky = w.below || (width > 64 && (mag & ((u128{1} << (width - 64)) - 1)) != 0);
  residual = rounded_to_odd(rest, sticky);
  exact = !sticky;
  return true;
}

// Rounds E = (-1)^negative * magnitude * 2^base into the output element `idx`; `scratch` is
// where E - nearest is formed when the top 128 bits do not decide its rounding.
void finalize(bool negative, std::span<const uint64_t> magnitude, int base, std::vector<uint64_t>& scratch,
              ExactProduct& out, size_t idx) {
  static const FormatSpec& f64 = format_spec(FormatId::FP64);
  static const FormatSpec& f32 = format_spec(FormatId::FP32);
  size_t top = magnitude.size();
  while (top > 0 && magnitude[top - 1] == 0) --top;
  if (top == 0) {
    out.nearest[idx] = 0.0;
    out.residual[idx] = 0.0;
    out.residual_exact[idx] = 1;
    out.nearest_fp32[idx] = 0.0f;
    return;
  }
  const Window w = window_of(magnitude, top);
  const ExactValue v{FloatClass::Normal, negative, uint64_t(w.bits >> 64), base + int(w.lsb) + 64};
  const bool sticky = w.below || uint64_t(w.bits) != 0;
  const EncodeResult r64 = nearest<double>(f64, v, sticky);
  const EncodeResult r32 = nearest<float>(f32, v, sticky);
  out.nearest[idx] = std::bit_cast<double>(r64.bits);
  out.nearest_fp32[idx] = std::bit_cast<float>(static_cast<uint32_t>(r32.bits));
  if (r64.overflow || !r64.inexact) {
    out.residual[idx] = 0.0;
    out.residual_exact[idx] = !r64.overflow;
    return;
  }
  bool exact = false;
  if (window_residual(w, base, negative, out.nearest[idx], out.residual[idx], exact)) {
    out.residual_exact[idx] = exact;
    return;
  }
  // |E| - |nearest| in two's complement, one word wider for the sign; E - nearest has its sign
  // times E's. The rounded value is a multiple of 2^base unless it equals the exact value (an
  // exact value with fewer than 53 significant bits), which the branch above returned.
  scratch.assign(magnitude.begin(), magnitude.end());
  scratch.push_back(0);
  const Parts n = parts_of(out.nearest[idx]);
  accumulate(scratch, true, n.sig, static_cast<unsigned>(n.exp - base));
  const bool below = scratch.back() >> 63;  // |E| < |nearest|
  if (below) negate(scratch);
  bool rest_sticky = false;
  const ExactValue rest = leading_bits(below != negative, scratch, base, rest_sticky);
  out.residual[idx] = rounded_to_odd(rest, rest_sticky);
  out.residual_exact[idx] = !rest_sticky;
}

// The same for a two's-complement accumulator (value acc * 2^base). Destroys acc.
void finalize(std::span<uint64_t> acc, int base, std::vector<uint64_t>& scratch, ExactProduct& out, size_t idx) {
  const bool negative = !acc.empty() && (acc.back() >> 63) != 0;
  if (negative) negate(acc);
  finalize(negative, acc, base, scratch, out, idx);
}

int width(const LineExtent& e) { return e.empty() ? 0 : e.top - e.low; }

// log2 of upper bounds on the line's scaled sum of magnitudes and on its scaled 2-norm: a rounded
// sum of `count` terms is within a relative (count - 1) 2^-53 of the exact one, each square within
// 2^-53 of its own (plus subnormal rounding or underflow: below count 2^-1074 in all).
double log2_l1_bound(const LineExtent& e, size_t count) {
  if (e.empty()) return 0;
  const double n = static_cast<double>(count);
  return std::log2(e.l1 * (1 + n * 0x1p-52) + n * 0x1p-1074) + 0x1p-20 - e.low;
}
double log2_l2_bound(const LineExtent& e, size_t count) {
  if (e.empty()) return 0;
  const double n = static_cast<double>(count);
  return 0.5 * std::log2(e.l2 * (1 + (n + 1) * 0x1p-52) + n * 0x1p-1074) + 0x1p-20 - e.low;
}

// A bound on the bits of every element of the integer product: |C_ij| <= sum_k |A_ik| |B_kj| is
// at most the row's sum of magnitudes times the column's largest (below 2^width), or the other
// way round, or the product of their 2-norms (Cauchy-Schwarz); all are within k * 2^(width_i +
// width_j). (A square past the FP64 range makes its bound infinite, and so unused.)
long product_bits(const Analysis& an, size_t k) {
  int wa = 0, wb = 0;
  double la = 0, lb = 0, na = 0, nb = 0;
  for (const auto& e : an.rows)
    wa = std::max(wa, width(e)), la = std::max(la, log2_l1_bound(e, k)), na = std::max(na, log2_l2_bound(e, k));
  for (const auto& e : an.cols)
    wb = std::max(wb, width(e)), lb = std::max(lb, log2_l1_bound(e, k)), nb = std::max(nb, log2_l2_bound(e, k));
  const double tight = std::min({la + wb, wa + lb, na + nb});
  const long loose = long{wa} + wb + ceil_log2(k);
  return tight < double(loose) ? std::max(1L, static_cast<long>(std::ceil(tight))) : loose;
}

Analysis analyse(const Matrix<double>& a, const Matrix<double>& b) {
  const PhaseTimer timer(Phase::Analysis);
  Analysis an;
  const size_t m = a.rows, k = a.cols, n = b.cols;
  an.rows.resize(m);
  an.cols.resize(n);
  if (k == 0) return an;  // every line empty (and no pointer into an empty matrix)
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i)
    for (size_t kk = 0; kk < k; ++kk) extend(an.rows[i], a.data[i * k + kk]);
  // B's columns a block at a time, row by row (in order of memory; each column's sums still in
  // order of k).
  constexpr size_t kColumns = 64;
#pragma omp parallel for schedule(static)
  for (size_t j0 = 0; j0 < n; j0 += kColumns)
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = j0; j < std::min(n, j0 + kColumns); ++j) extend(an.cols[j], b.data[kk * n + j]);
  an.bits = product_bits(an, k);
  return an;
}

// count elements v as integers sig * 2^shift scaled to the lowest set bit `low[e]` of their line
// (non-finite ones and zeros as 0). The significand keeps its trailing zeros unless they lie below
// that bit (then they are shifted out: only zeros go); selects rather than branches, so that it
// vectorises.
OZREF_VECTOR_CLONES void scale_line(const double* v, size_t count, const int64_t* low, int64_t* sig, uint16_t* shift) {
#pragma omp simd
  for (size_t e = 0; e < count; ++e) {
    const uint64_t bits = std::bit_cast<uint64_t>(v[e]);
    const int64_t field = int64_t((bits >> 52) & 0x7FF);
    const uint64_t fraction = bits & ((uint64_t{1} << 52) - 1);
    const uint64_t full = field ? fraction | (uint64_t{1} << 52) : fraction;
    const int64_t offset = (field ? field : 1) - 1075 - low[e];  // the significand's bit 0 over `low`
    const int64_t below = std::min<int64_t>(offset < 0 ? -offset : 0, 63);
    const uint64_t mag = field == 0x7FF ? 0 : full >> below;
    sig[e] = bits >> 63 ? -int64_t(mag) : int64_t(mag);
    shift[e] = mag ? uint16_t(offset > 0 ? offset : 0) : 0;
  }
}

// A's elements as integers, each row scaled to its lowest set bit.
ScaledIntegerMatrix scaled_rows(const Matrix<double>& x, const std::vector<LineExtent>& lines) {
  const PhaseTimer timer(Phase::Scaling);
  ScaledIntegerMatrix s;
  s.rows = x.rows;
  s.cols = x.cols;
  s.significand.resize(x.size());
  s.shift.resize(x.size());
#pragma omp parallel
  {
    std::vector<int64_t> row_low(x.cols);
#pragma omp for schedule(static)
    for (size_t i = 0; i < x.rows; ++i) {
      std::fill(row_low.begin(), row_low.end(), int64_t{lines[i].low});
      scale_line(&x.data[i * x.cols], x.cols, row_low.data(), &s.significand[i * x.cols], &s.shift[i * x.cols]);
    }
  }
  return s;
}

// B's columns as the rows of an n x k matrix of integers (crt_gemm takes B transposed), each
// scaled to its lowest set bit: B's rows a tile at a time into a buffer, written out transposed, so
// that B is never held scaled in its own order (a pass and a matrix the size of B fewer).
ScaledIntegerMatrix scaled_columns(const Matrix<double>& x, const std::vector<LineExtent>& lines) {
  const PhaseTimer timer(Phase::Scaling);
  constexpr size_t kTile = 32;  // rows of B per tile
  const size_t k = x.rows, n = x.cols;
  ScaledIntegerMatrix s{n, k, Buffer<int64_t>(x.size()), Buffer<uint16_t>(x.size())};
  std::vector<int64_t> col_low(n);  // an empty line's low (INT_MAX) meets only zeros
  for (size_t j = 0; j < n; ++j) col_low[j] = lines[j].low;
#pragma omp parallel
  {
    std::vector<int64_t> sig(kTile * n);
    std::vector<uint16_t> shift(kTile * n);
#pragma omp for schedule(static)
    for (size_t r0 = 0; r0 < k; r0 += kTile) {
      const size_t rows = std::min(kTile, k - r0);
      for (size_t t = 0; t < rows; ++t) scale_line(&x.data[(r0 + t) * n], n, col_low.data(), &sig[t * n], &shift[t * n]);
      for (size_t j = 0; j < n; ++j)
        for (size_t t = 0; t < rows; ++t) {
          s.significand[j * k + r0 + t] = sig[t * n + j];
          s.shift[j * k + r0 + t] = shift[t * n + j];
        }
    }
  }
  return s;
}

// The panels of C the modular path runs in: rows x cols panels of at most `height` x `width`.
struct Panels {
  size_t rows = 1, cols = 1, height = 0, width = 0;
};

// The bytes one run of the modular path allocates for an m x k by k x n product (the panel's
// operands copied out of A and B included).
double modular_bytes(size_t m, size_t n, size_t k, const CrtPlan& plan, long bits) {
  const double residue_bytes = plan.int8 ? 3.0 * (m * k + k * n) + 12.0 * m * n + 10.0 * k * n : 8.0 * k * n * plan.gemms;
  return plan.moduli * 8.0 * m * n + residue_bytes + 26.0 * (m * k + k * n) + 8.0 * m * n * (bits / 64 + 3);
}

// The fewest panels (the longer side halved each time) whose runs fit `max_bytes`; none (0 x 0)
// where even a panel of one element would not.
Panels panels_for(size_t m, size_t n, size_t k, const CrtPlan& plan, long bits, double max_bytes) {
  Panels p{1, 1, m, n};
  while (modular_bytes(p.height, p.width, k, plan, bits) > max_bytes) {
    if (p.height == 1 && p.width == 1) return {0, 0, 0, 0};
    if (p.height >= p.width) p.rows *= 2;
    else p.cols *= 2;
    p.height = (m + p.rows - 1) / p.rows, p.width = (n + p.cols - 1) / p.cols;
  }
  p.rows = (m + p.height - 1) / p.height, p.cols = (n + p.width - 1) / p.width;  // none empty
  return p;
}

// Rows [i0, i0 + rows) of x, or its columns [j0, j0 + cols).
Matrix<double> rows_of(const Matrix<double>& x, size_t i0, size_t rows) {
  Matrix<double> p(rows, x.cols);
  std::copy_n(x.data.data() + i0 * x.cols, rows * x.cols, p.data.data());
  return p;
}
Matrix<double> columns_of(const Matrix<double>& x, size_t j0, size_t cols) {
  Matrix<double> p(x.rows, cols);
#pragma omp parallel for schedule(static)
  for (size_t r = 0; r < x.rows; ++r) std::copy_n(x.data.data() + r * x.cols + j0, cols, p.data.data() + r * cols);
  return p;
}

// One panel of C: rows i0.. of A (a) times columns j0.. of B (b), into out's elements (i0 + i, j0 + j).
void modular_panel(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an, size_t i0, size_t j0, ExactProduct& out) {
  const size_t n = b.cols, out_n = out.cols;
  const std::vector<LineExtent> rows(an.rows.begin() + i0, an.rows.begin() + i0 + a.rows), cols(an.cols.begin() + j0, an.cols.begin() + j0 + n);
  crt_gemm(scaled_rows(a, rows), scaled_columns(b, cols), an.bits, [&](const ProductBlock& block) {
    std::vector<uint64_t> scratch;  // allocated only where the multi-word residual is needed
    size_t i = block.first / n, j = block.first % n;  // stepped along, not divided per element
    for (size_t e = 0; e < block.count; ++e, j = j + 1 == n ? (++i, 0) : j + 1) {
      const LineExtent& r = rows[i];
      const LineExtent& col = cols[j];
      finalize(block.negative[e], {block.magnitude + e * block.words, block.words},
               r.empty() || col.empty() ? 0 : r.low + col.low, scratch, out, (i0 + i) * out_n + j0 + j);
    }
  });
}

// The modular path on every panel of C in turn; a single panel takes A and B as they are.
void modular_path(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an, const Panels& p,
                  ExactProduct& out) {
  if (p.rows * p.cols == 1) return modular_panel(a, b, an, 0, 0, out);
  for (size_t i0 = 0; i0 < a.rows; i0 += p.height) {
    const Matrix<double> a_panel = rows_of(a, i0, std::min(p.height, a.rows - i0));
    for (size_t j0 = 0; j0 < b.cols; j0 += p.width) modular_panel(a_panel, columns_of(b, j0, std::min(p.width, b.cols - j0)), an, i0, j0, out);
  }
}

void direct_path(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an,
                 ExactProduct& out) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
  const PhaseTimer timer(Phase::DirectPath);
#pragma omp parallel
  {
    std::vector<uint64_t> acc, scratch;
#pragma omp for schedule(dynamic, 4)
    for (size_t i = 0; i < m; ++i) {
      for (size_t j = 0; j < n; ++j) {
        const LineExtent& r = an.rows[i];
        const LineExtent& c = an.cols[j];
        if (r.empty() || c.empty()) {
          acc.assign(1, 0);
          finalize(acc, 0, scratch, out, i * n + j);
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
        finalize(acc, base, scratch, out, i * n + j);
      }
    }
  }
}

void apply_specials(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an,
                    ExactProduct& out) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
  const PhaseTimer timer(Phase::Specials);
  const auto apply = [&](size_t i, size_t j) {
    const SpecialResult s = dot_special(a.data.data() + i * k, 1, b.data.data() + j, n, k);
    if (s == SpecialResult::None) return;
    const double v = s == SpecialResult::NaN            ? std::nan("")
                     : s == SpecialResult::PlusInfinity ? HUGE_VAL
                                                        : -HUGE_VAL;
    const size_t idx = i * n + j;
    out.nearest[idx] = v;
    out.nearest_fp32[idx] = static_cast<float>(v);
    out.residual[idx] = 0.0;
    out.residual_exact[idx] = 1;
  };
  // Only the elements of a row or column with a non-finite entry (a pass over all of C would be
  // serial work at every size).
  std::vector<size_t> nonfinite_cols;
  for (size_t j = 0; j < n; ++j)
    if (an.cols[j].nonfinite) nonfinite_cols.push_back(j);
  for (size_t i = 0; i < m; ++i) {
    if (an.rows[i].nonfinite)
      for (size_t j = 0; j < n; ++j) apply(i, j);
    else
      for (size_t j : nonfinite_cols) apply(i, j);
  }
}

// The modular path's residue GEMMs and panels, or no panels where the direct path runs instead.
struct Method {
  int gemms = 0;
  Panels panels{0, 0, 0, 0};
};

// Costs are estimated in thread-nanoseconds per element of the product (measured with
// bench_exact_gemm) on one panel: per GEMM (int8 or FP64) its product and operands, per modulus its
// residues and Garner's steps; per product the direct path's exact multiply and wide add.
Method choose_method(const Matrix<double>& a, const Matrix<double>& b, const Analysis& an, const ExactGemmOptions& options) {
  const size_t m = a.rows, k = a.cols, n = b.cols;
  if (options.method == ExactMethod::Direct || an.bits == 0 || m * n == 0) return {};
  const CrtPlan plan = crt_plan(k, an.bits);
  if (!plan.moduli) return {};
  const Panels p = panels_for(m, n, k, plan, an.bits, options.max_modular_bytes);
  if (p.rows == 0) return {};
  if (options.method == ExactMethod::Modular) return {plan.gemms, p};
  const double hp = double(p.height), wp = double(p.width);
  const double per_gemm = plan.int8 ? 0.006 * k + 1.0 * k * (1.0 / hp + 1.0 / wp) + 1.0 : 0.04 * k + 3.0 * k * (1.0 / hp + 1.0 / wp) + 2.0;
  const double per_modulus = plan.int8 ? 3.0 * k * (1.0 / hp + 1.0 / wp) + 2.0 : 0;
  const double modular_cost = plan.gemms * per_gemm + plan.moduli * per_modulus + 1.5 * plan.moduli * plan.moduli;
  const double direct_cost = 25.0 * k;
  return modular_cost < direct_cost ? Method{plan.gemms, p} : Method{};
}

// Every element of the output a canary (every element must be written), set on the threads: on one
// thread its first-touch page faults were a serial part of the product (docs/scale.md).
void fill_canaries(ExactProduct& out, size_t mn) {
  out.nearest.resize(mn);
  out.residual.resize(mn);
  out.residual_exact.resize(mn);
  out.nearest_fp32.resize(mn);
  const double nan = std::nan("");
  const float nanf = std::nanf("");
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < mn; ++i) {
    out.nearest[i] = nan;
    out.residual[i] = nan;
    out.residual_exact[i] = 0;
    out.nearest_fp32[i] = nanf;
  }
}

}  // namespace ozref::exact_parts

namespace ozref {
using namespace exact_parts;

ExactProduct exact_gemm(const Matrix<double>& a, const Matrix<double>& b,
                        const ExactGemmOptions& options) {
  if (a.cols != b.rows) throw std::invalid_argument("exact_gemm: inner dimensions differ");
  const PhaseTimer timer(Phase::ProductSetup);
  const int saved_threads = omp_get_max_threads();
  const int saved_blas_threads = openblas_get_num_threads();
  const int threads = options.threads > 0 ? options.threads : saved_threads;
  omp_set_num_threads(threads);

  ExactProduct out;
  out.rows = a.rows;
  out.cols = b.cols;
  out.depth = a.cols;
  fill_canaries(out, a.rows * b.cols);

  const Analysis an = analyse(a, b);
  const Method method = choose_method(a, b, an, options);
  if (method.gemms) {
    out.moduli = method.gemms;
    out.panels = method.panels.rows * method.panels.cols;
    modular_path(a, b, an, method.panels, out);
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
