#include "schemes/ozaki1/scheme.hpp"

#include <chrono>
#include <cmath>
#include <map>

#include "common/error.hpp"
#include "common/named_choice.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

const char* scheme_name(Ozaki1Variant v) { return v == Ozaki1Variant::Fp4 ? "ozaki1-fp4" : "ozaki1-int8"; }

size_t slice_count(const Ozaki1Options& o) { return o.slices ? o.slices : o.variant == Ozaki1Variant::Fp4 ? 15 : 4; }

void check_inputs(const Matrix<double>& a, const Matrix<double>& b, const Ozaki1Options& o) {
  const std::string name = scheme_name(o.variant);
  const size_t p = slice_count(o), p_max = o.variant == Ozaki1Variant::Fp4 ? 16 : 9;
  if (a.cols != b.rows) throw InputError(name + ": A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                                         " but B is " + std::to_string(b.rows) + "x" + std::to_string(b.cols));
  if (p < 1 || p > p_max) throw InputError(name + ": --slices must be 1.." + std::to_string(p_max) + ", got " + std::to_string(p));
  if (o.variant == Ozaki1Variant::Fp4 && o.accumulation == Accumulation::Fused)
    throw InputError("ozaki1-fp4: --accumulate fused is the INT32 accumulation of the INT8 scheme (use exact or fp64)");
  if (o.variant == Ozaki1Variant::Int8Cublas && o.accumulation == Accumulation::Fused)
    throw InputError("ozaki1-int8 --slicing cublas: --accumulate fused would put s8 and u8 slices in one GEMM (use exact or fp64)");
  if (o.variant == Ozaki1Variant::Int8Cublas && a.cols > 33025)
    throw InputError(name + " --slicing cublas: K = " + std::to_string(a.cols) +
                     " exceeds 33025, where K products of two unsigned 8-bit slices (255^2 each) still fit INT32");
  if (o.variant == Ozaki1Variant::Int8 && a.cols >= (size_t{1} << 29))
    throw InputError(name + ": K = " + std::to_string(a.cols) + " leaves no slice width (K < 2^29)");
  if (o.variant == Ozaki1Variant::Fp4 && a.cols > 262144)
    throw InputError(name + ": K = " + std::to_string(a.cols) +
                     " exceeds 262144, the bound for exact FP4 GEMMs of greedy digits (exact_k.greedy_fp4_digits.*)");
  require_finite(a, name.c_str(), "A");
  require_finite(b, name.c_str(), "B");
}

}  // namespace

Accumulation parse_accumulation(const std::string& name) {
  return named_choice<Accumulation>(name, "--accumulate",
                                    {{"exact", Accumulation::Exact}, {"fp64", Accumulation::Fp64}, {"fused", Accumulation::Fused}});
}

SchemeResult run_ozaki1(const Matrix<double>& a, const Matrix<double>& b, const Ozaki1Options& o, TraceWriter* trace) {
  check_inputs(a, b, o);
  const auto t_start = std::chrono::steady_clock::now();
  const size_t m = a.rows, k = a.cols, n = b.cols, kp = (k + 31) / 32 * 32, p = slice_count(o);
  const bool fused = o.accumulation == Accumulation::Fused, exact = o.accumulation != Accumulation::Fp64;
  const Slicing sl(o.variant, p, kp, fused ? p : 1);
  // The slice pairs (t, u) with t + u <= p - 1, in the order t = 0..p-1, u = 0..p-1-t.
  std::vector<std::pair<size_t, size_t>> pairs;
  for (size_t t = 0; t < p; ++t)
    for (size_t u = 0; t + u < p; ++u) pairs.push_back({t, u});
  // One low-precision GEMM per operand signedness the pairs need (the cublas slicing mixes s8 and
  // u8 slices), set up before any stage runs so that a missing instruction is refused at once.
  std::map<std::pair<bool, bool>, LowpGemm> gemms;
  for (const auto& [t, u] : pairs) {
    const std::pair<bool, bool> sign{sl.slice_signed(t), sl.slice_signed(u)};
    if (!gemms.count(sign))
      gemms.emplace(sign, LowpGemm(sl.format() == LowpFormat::Int8
                                       ? scheme_int8_instruction(o.arch, sign.first, sign.second, scheme_name(o.variant))
                                       : scheme_instruction(o.arch, sl.format(), "", scheme_name(o.variant)),
                                   sl.format()));
  }
  const LowpGemm& lowp = gemms.at({true, true});  // the leading pair, and every fused GEMM
  auto gemm_for = [&](size_t t, size_t u) -> const LowpGemm& { return gemms.at({sl.slice_signed(t), sl.slice_signed(u)}); };
  const bool cheap = o.verify != Verify::None, full = o.verify == Verify::Full;
  SchemeResult r;
  r.exactness_conditions = true;  // the slice width and the K bound make every GEMM safe by construction

  std::vector<int> sa(m, 0), sb(n, 0);
  {
    StageClock clock(r, "scale", cheap);
    for (size_t i = 0; i < m; ++i) {
      double mx = 0;
      for (size_t kk = 0; kk < k; ++kk) mx = std::max(mx, std::fabs(a(i, kk)));
      sa[i] = sl.shift(mx);
    }
    for (size_t j = 0; j < n; ++j) {
      double mx = 0;
      for (size_t kk = 0; kk < k; ++kk) mx = std::max(mx, std::fabs(b(kk, j)));
      sb[j] = sl.shift(mx);
    }
    if (trace) {
      trace->add("scale", "row_shift", stage_array(DType::I4, {m}, sa));
      trace->add("scale", "col_shift", stage_array(DType::I4, {n}, sb));
    }
  }
  std::vector<int8_t> as(p * m * k), bs(p * k * n);
  {
    // Contract: the slices of every element are what the slicing promises (range, sign or digit
    // set, and they add back to the scaled element truncated or rounded; slicing.hpp).
    StageClock clock(r, "slices", cheap);
    for (size_t i = 0; i < m; ++i)
      for (size_t kk = 0; kk < k; ++kk) {
        sl.slice(a(i, kk), sa[i], &as[i * k + kk], m * k);
        const std::string why = cheap ? sl.check(a(i, kk), sa[i], &as[i * k + kk], m * k) : "";
        if (!why.empty()) clock.report().violate("A" + index3(0, i, kk) + ": " + why);
      }
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) {
        sl.slice(b(kk, j), sb[j], &bs[kk * n + j], k * n);
        const std::string why = cheap ? sl.check(b(kk, j), sb[j], &bs[kk * n + j], k * n) : "";
        if (!why.empty()) clock.report().violate("B" + index3(0, kk, j) + ": " + why);
      }
    if (trace) {
      trace->add("slices", "a", stage_array(DType::I1, {p, m, k}, as));
      trace->add("slices", "b", stage_array(DType::I1, {p, k, n}, bs));
    }
  }
  // gemm: one per pair; fused: one per d = t + u over the concatenated slices [A_0 .. A_d] and
  // [B_d; ..; B_0].
  const size_t outputs = fused ? p : pairs.size();
  std::vector<uint32_t> cg(outputs * m * n);
  {
    StageClock clock(r, "gemm", full);
    auto issue = [&](size_t q, size_t kk, const int8_t* a_op, const int8_t* b_op, const LowpGemm& g, const std::string& label) {
      const std::vector<uint32_t> d = g.run(m, n, kk, a_op, b_op, o.threads);
      std::copy(d.begin(), d.end(), cg.begin() + static_cast<long>(q * m * n));
      if (!full) return;
      const size_t wrong = check_lowp_gemm(g, m, n, kk, a_op, b_op, false, d, label, clock.report());
      if (wrong) clock.report().note(label + ": " + std::to_string(wrong) + " of " + std::to_string(m * n) + " elements not exact");
    };
    if (fused) {
      for (size_t d = 0; d < p; ++d) {
        std::vector<int8_t> a_cat(m * (d + 1) * k), b_cat((d + 1) * k * n);
        for (size_t t = 0; t <= d; ++t) {
          for (size_t i = 0; i < m; ++i)
            std::copy_n(&as[t * m * k + i * k], k, &a_cat[i * (d + 1) * k + t * k]);
          std::copy_n(&bs[(d - t) * k * n], k * n, &b_cat[t * k * n]);
        }
        issue(d, (d + 1) * k, a_cat.data(), b_cat.data(), lowp, "fused slice products t + u = " + std::to_string(d));
        r.low_precision_gemms += d + 1;
      }
    } else {
      for (size_t q = 0; q < pairs.size(); ++q) {
        const auto [t, u] = pairs[q];
        issue(q, k, &as[t * m * k], &bs[u * k * n], gemm_for(t, u), "slice pair (" + std::to_string(t) + "," + std::to_string(u) + ")");
        ++r.low_precision_gemms;
      }
    }
    if (trace) trace->add("gemm", "c", stage_array(sl.format() == LowpFormat::Int8 ? DType::I4 : DType::F4, {outputs, m, n}, cg));
  }
  // accumulate: C' in units of 2^unit, exact; or in FP64 as a kernel adds the products.
  std::vector<mpz_class> cint(m * n);
  std::vector<double> acc(m * n, 0.0);
  {
    StageClock clock(r, "accumulate", full && exact);
    for (size_t x = 0; x < m * n; ++x)
      for (size_t q = 0; q < outputs; ++q) {
        const size_t d = fused ? q : pairs[q].first + pairs[q].second;
        const int64_t v = lowp.integer_output(cg[q * m * n + x]);
        if (v == kNotInteger) continue;  // the gemm stage reports it
        cint[x] += sl.weight(d) * mpz_class(static_cast<long>(v));
        acc[x] += double(v) * sl.weight_fp64(d);  // ozIMMU's FP64 sum, in pair order
      }
    if (full && exact) {
      // Contract: C' equals the triangular sum taken straight from the slices (not from the GEMM
      // outputs): sum_k sum_{t+u<=p-1} A_t B_u weight(t + u).
      std::vector<mpz_class> direct(m * n);
      std::vector<int64_t> dot(n);
      for (const auto& [t, u] : pairs)
        for (size_t i = 0; i < m; ++i) {
          std::fill(dot.begin(), dot.end(), 0);
          const bool sa = sl.slice_signed(t), sb = sl.slice_signed(u);
          for (size_t kk = 0; kk < k; ++kk) {
            const int8_t raw = as[t * m * k + i * k + kk];
            const int64_t x = sa ? int64_t(raw) : int64_t(uint8_t(raw));
            const int8_t* bk = &bs[u * k * n + kk * n];
            for (size_t j = 0; j < n; ++j) dot[j] += x * (sb ? int64_t(bk[j]) : int64_t(uint8_t(bk[j])));
          }
          for (size_t j = 0; j < n; ++j) direct[i * n + j] += sl.weight(t + u) * mpz_class(static_cast<long>(dot[j]));
        }
      for (size_t x = 0; x < m * n; ++x)
        if (direct[x] != cint[x]) {
          clock.report().violate("C'" + index3(0, x / n, x % n) + " differs from the triangular sum of the slices");
          break;
        }
    }
    if (trace) {
      std::vector<double> hi(m * n);
      for (size_t x = 0; x < m * n; ++x) hi[x] = exact ? nearest_double(cint[x], sl.unit_exponent()) : acc[x];
      trace->add("accumulate", "c", stage_array(DType::F8, {m, n}, hi));
    }
  }
  r.c = Matrix<double>(m, n);
  {
    StageClock clock(r, "unscale", cheap);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        const size_t x = i * n + j;
        const int e = sl.unit_exponent() - sa[i] - sb[j];
        if (exact) {
          r.c(i, j) = nearest_double(cint[x], e);
          if (cheap && !is_correct_rounding(cint[x], e, r.c(i, j)))
            clock.report().violate("C" + index3(0, i, j) + " is not C' 2^e correctly rounded");
        } else {
          r.c(i, j) = std::ldexp(acc[x], -sa[i] - sb[j]);
        }
      }
    if (trace) trace->add("unscale", "c", stage_array(DType::F8, {m, n}, r.c.data));
  }
  r.pipeline_seconds = seconds_since(t_start);
  finish_run(r, a, b, r.c.data, exact, o.threads, t_start);
  return r;
}

SchemeResult run_ozaki1_complex(const Matrix<double>& a_re, const Matrix<double>& a_im, const Matrix<double>& b_re,
                                const Matrix<double>& b_im, const Ozaki1Options& o, TraceWriter* trace) {
  const std::string name = scheme_name(o.variant);
  if (a_re.rows != a_im.rows || a_re.cols != a_im.cols || b_re.rows != b_im.rows || b_re.cols != b_im.cols)
    throw InputError(name + ": real and imaginary parts differ in shape");
  if (a_re.cols != b_re.rows) throw InputError(name + ": A is " + std::to_string(a_re.rows) + "x" + std::to_string(a_re.cols) +
                                               " but B is " + std::to_string(b_re.rows) + "x" + std::to_string(b_re.cols));
  const StackedComplex s = stack_complex(a_re, a_im, b_re, b_im);
  SchemeResult r = run_ozaki1(s.a, s.b, o, trace);
  const size_t m = a_re.rows, n = b_re.cols;
  Matrix<double> re(m, n), im(m, n);
  std::copy_n(r.c.data.begin(), m * n, re.data.begin());
  std::copy_n(r.c.data.begin() + static_cast<long>(m * n), m * n, im.data.begin());
  r.c = std::move(re);
  r.c_imag = std::move(im);
  r.low_precision_gemms *= 4;  // each stacked GEMM is four m x k x n products
  return r;
}

}  // namespace ozref::schemes
