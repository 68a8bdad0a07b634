#include "schemes/ozaki1/int8_scheme.hpp"

#include <bit>
#include <cmath>

#include "common/error.hpp"
#include "schemes/common/lowp_gemm.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

int ceil_log2(size_t k) { return k <= 1 ? 0 : std::bit_width(k - 1); }

void check_inputs(const Matrix<double>& a, const Matrix<double>& b, const Ozaki1Int8Options& o) {
  if (a.cols != b.rows) throw InputError("ozaki1-int8: A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                                         " but B is " + std::to_string(b.rows) + "x" + std::to_string(b.cols));
  if (o.slices < 1 || o.slices > 9) throw InputError("ozaki1-int8: --slices must be 1..9, got " + std::to_string(o.slices));
  if (ceil_log2(a.cols) > 29) throw InputError("ozaki1-int8: K = " + std::to_string(a.cols) + " leaves no slice width (K < 2^29)");
  require_finite(a, "ozaki1-int8", "A");
  require_finite(b, "ozaki1-int8", "B");
}

// Row (or column) shift so that |x 2^s| < 2^w for every x of the line: s = w - 1 - ilogb(max|x|).
int line_shift(double max_abs, int w) { return max_abs == 0 ? 0 : w - 1 - std::ilogb(max_abs); }

}  // namespace

Accumulation parse_accumulation(const std::string& name) {
  if (name == "exact") return Accumulation::Exact;
  if (name == "fp64") return Accumulation::Fp64;
  throw InputError("unknown --accumulate '" + name + "' (known: exact, fp64)");
}

SchemeResult run_ozaki1_int8(const Matrix<double>& a, const Matrix<double>& b, const Ozaki1Int8Options& o,
                             TraceWriter* trace) {
  check_inputs(a, b, o);
  const auto t_start = std::chrono::steady_clock::now();
  const size_t m = a.rows, k = a.cols, n = b.cols, kp = (k + 31) / 32 * 32, p = o.slices;
  const int w = std::min(7, (31 - ceil_log2(std::max<size_t>(kp, 1))) / 2);
  const LowpGemm int8(scheme_instruction(o.arch, LowpFormat::Int8, "", "ozaki1-int8"), LowpFormat::Int8);
  const bool cheap = o.verify != Verify::None, full = o.verify == Verify::Full;
  SchemeResult r;
  r.exactness_conditions = true;  // the slice width makes every INT32 sum safe by construction

  std::vector<int> sa(m, 0), sb(n, 0);
  {
    StageClock clock(r, "scale", cheap);
    for (size_t i = 0; i < m; ++i) {
      double mx = 0;
      for (size_t kk = 0; kk < k; ++kk) mx = std::max(mx, std::fabs(a(i, kk)));
      sa[i] = line_shift(mx, w);
    }
    for (size_t j = 0; j < n; ++j) {
      double mx = 0;
      for (size_t kk = 0; kk < k; ++kk) mx = std::max(mx, std::fabs(b(kk, j)));
      sb[j] = line_shift(mx, w);
    }
    if (cheap)
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk)
          if (std::fabs(std::ldexp(static_cast<long double>(a(i, kk)), sa[i])) >= std::ldexp(1.0L, w))
            clock.report().violate("|A 2^s|" + index3(0, i, kk) + " >= 2^w");
    if (trace) {
      trace->add("scale", "row_shift", stage_array(DType::I4, {m}, sa));
      trace->add("scale", "col_shift", stage_array(DType::I4, {n}, sb));
    }
  }
  // slices: x = a 2^s, slice_t = trunc of the next w bits, signed like x.
  std::vector<int8_t> as(p * m * k), bs(p * k * n);
  {
    StageClock clock(r, "slices", cheap);
    auto slice = [&](double x, int shift, int8_t* out, size_t stride) {
      long double rest = std::ldexp(static_cast<long double>(x), shift);
      for (size_t t = 0; t < p; ++t) {
        const long double digit = std::trunc(rest);
        out[t * stride] = static_cast<int8_t>(digit);
        rest = (rest - digit) * std::ldexp(1.0L, w);  // exact: 64-bit significand, x has 53 bits
      }
    };
    for (size_t i = 0; i < m; ++i)
      for (size_t kk = 0; kk < k; ++kk) slice(a(i, kk), sa[i], &as[i * k + kk], m * k);
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) slice(b(kk, j), sb[j], &bs[kk * n + j], k * n);
    if (cheap) {
      // Contract: every slice within (-2^w, 2^w) and of x's sign; the slices add back to x
      // truncated at p*w bits: sum_t slice_t 2^((p-1-t)w) == trunc(x 2^((p-1)w)), exactly.
      auto check = [&](const std::vector<int8_t>& sl, size_t count, auto value_of, auto shift_of, const char* name) {
        for (size_t x = 0; x < count; ++x) {
          const long double v = std::ldexp(static_cast<long double>(value_of(x)), shift_of(x));
          __int128 sum = 0;
          for (size_t t = 0; t < p; ++t) {
            const int s = sl[t * count + x];
            if (std::abs(s) >= (1 << w) || (s != 0 && (s < 0) != (v < 0)))
              clock.report().violate(std::string(name) + " slice " + std::to_string(s) + " out of range at " + std::to_string(x));
            sum = sum * (__int128{1} << w) + s;
          }
          const long double want = std::trunc(std::ldexp(v, int((p - 1) * w)));
          if (static_cast<long double>(sum) != want)
            clock.report().violate(std::string(name) + " slices of element " + std::to_string(x) + " do not add back");
        }
      };
      check(as, m * k, [&](size_t x) { return a.data[x]; }, [&](size_t x) { return sa[x / k]; }, "A");
      check(bs, k * n, [&](size_t x) { return b.data[x]; }, [&](size_t x) { return sb[x % n]; }, "B");
    }
    if (trace) {
      trace->add("slices", "a", stage_array(DType::I1, {p, m, k}, as));
      trace->add("slices", "b", stage_array(DType::I1, {p, k, n}, bs));
    }
  }
  // gemm: pairs (t, u) with t + u <= p - 1, in the order t = 0..p-1, u = 0..p-1-t.
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t t = 0; t < p; ++t)
    for (size_t u = 0; t + u < p; ++u) pairs.push_back({t, u});
  std::vector<int32_t> cg(pairs.size() * m * n);
  {
    StageClock clock(r, "gemm", full);
    for (size_t q = 0; q < pairs.size(); ++q) {
      const auto [t, u] = pairs[q];
      const int8_t* a_op = &as[t * m * k];
      const int8_t* b_op = &bs[u * k * n];
      const std::vector<uint32_t> d = int8.run(m, n, k, a_op, b_op, o.threads);
      std::memcpy(&cg[q * m * n], d.data(), d.size() * 4);
      ++r.low_precision_gemms;
      if (full) {
        const std::string label = "slice pair (" + std::to_string(t) + "," + std::to_string(u) + ")";
        const size_t wrong = check_lowp_gemm(int8, m, n, k, a_op, b_op, d, label, clock.report());
        if (wrong) clock.report().note(label + ": " + std::to_string(wrong) + " of " + std::to_string(m * n) + " elements not exact");
      }
    }
    if (trace) trace->add("gemm", "c", stage_array(DType::I4, {pairs.size(), m, n}, cg));
  }
  // accumulate: C' in units of 2^-(p-1)w, exact; or in FP64 as a kernel adds the products.
  std::vector<mpz_class> exact_units(m * n);
  std::vector<double> acc(m * n, 0.0);
  {
    StageClock clock(r, "accumulate", full && o.accumulation == Accumulation::Exact);
    for (size_t x = 0; x < m * n; ++x) {
      __int128 units = 0;
      for (size_t q = 0; q < pairs.size(); ++q) {
        const size_t d = pairs[q].first + pairs[q].second;
        units += static_cast<__int128>(cg[q * m * n + x]) << ((p - 1 - d) * w);
        acc[x] += std::ldexp(double(cg[q * m * n + x]), -int(d) * w);  // ozIMMU's FP64 sum, in pair order
      }
      exact_units[x] = mpz_from_int128(units);
    }
    if (full && o.accumulation == Accumulation::Exact) {
      // Contract: C' equals the triangular sum taken straight from the slices (not from the GEMM
      // outputs): sum_k sum_{t+u<=p-1} A_t B_u 2^((p-1-t-u)w).
      for (size_t i = 0; i < m && clock.report().violations == 0; ++i)
        for (size_t j = 0; j < n; ++j) {
          __int128 direct = 0;
          for (const auto& [t, u] : pairs)
            for (size_t kk = 0; kk < k; ++kk)
              direct += static_cast<__int128>(int64_t(as[t * m * k + i * k + kk]) * bs[u * k * n + kk * n + j])
                        << ((p - 1 - t - u) * w);
          if (mpz_from_int128(direct) != exact_units[i * n + j]) {
            clock.report().violate("C'" + index3(0, i, j) + " differs from the triangular sum of the slices");
            break;
          }
        }
    }
    if (trace) {
      std::vector<double> hi(m * n);
      for (size_t x = 0; x < m * n; ++x)
        hi[x] = o.accumulation == Accumulation::Exact ? nearest_double(exact_units[x], -int((p - 1) * w)) : acc[x];
      trace->add("accumulate", "c", stage_array(DType::F8, {m, n}, hi));
    }
  }
  r.c = Matrix<double>(m, n);
  {
    StageClock clock(r, "unscale", cheap);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        const size_t x = i * n + j;
        const int e = -int((p - 1) * w) - sa[i] - sb[j];
        if (o.accumulation == Accumulation::Exact) {
          r.c(i, j) = nearest_double(exact_units[x], e);
          if (cheap && !is_correct_rounding(exact_units[x], e, r.c(i, j)))
            clock.report().violate("C" + index3(0, i, j) + " is not C' 2^e correctly rounded");
        } else {
          r.c(i, j) = std::ldexp(acc[x], -sa[i] - sb[j]);
        }
      }
    if (trace) trace->add("unscale", "c", stage_array(DType::F8, {m, n}, r.c.data));
  }
  finish_run(r, a, b, o.accumulation == Accumulation::Exact, o.threads, t_start);
  return r;
}

}  // namespace ozref::schemes
