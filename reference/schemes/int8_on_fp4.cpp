#include "schemes/int8_on_fp4.hpp"

#include <chrono>
#include <cmath>

#include "common/error.hpp"
#include "schemes/common/base13.hpp"
#include "schemes/common/lowp_gemm.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

constexpr int kLimbs = 3;
constexpr size_t kMaxK = 262144;  // greedy digits are at most 8: exact_k.greedy_fp4_digits.*

void require_int8(const Matrix<double>& x, const char* name) {
  for (size_t i = 0; i < x.rows; ++i)
    for (size_t j = 0; j < x.cols; ++j) {
      const double v = x(i, j);
      if (!(v >= -128 && v <= 127 && v == std::trunc(v)))
        throw InputError(std::string("int8-on-fp4: ") + name + "[" + std::to_string(i) + "," + std::to_string(j) + "] = " +
                         std::to_string(v) + " is not an INT8 value (an integer in [-128, 127]); use --dist integers:R with R <= 127 or INT8-valued .npy files");
    }
}

}  // namespace

SchemeResult run_int8_on_fp4(const Matrix<double>& a, const Matrix<double>& b, const Int8OnFp4Options& o, TraceWriter* trace) {
  if (a.cols != b.rows)
    throw InputError("int8-on-fp4: A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + " but B is " +
                     std::to_string(b.rows) + "x" + std::to_string(b.cols));
  if (a.cols > kMaxK)
    throw InputError("int8-on-fp4: K = " + std::to_string(a.cols) + " exceeds " + std::to_string(kMaxK) +
                     ", the bound under which an FP4 GEMM of greedy base-13 digits stays exact (docs/proofs.md)");
  require_int8(a, "A");
  require_int8(b, "B");
  const LowpGemm lowp(scheme_instruction(o.arch, LowpFormat::E2M1, o.op, "int8-on-fp4"), LowpFormat::E2M1);
  const auto t_start = std::chrono::steady_clock::now();
  const size_t m = a.rows, k = a.cols, n = b.cols;
  const bool cheap = o.verify != Verify::None, full = o.verify == Verify::Full;
  SchemeResult r;
  r.exactness_conditions = true;  // K within the bound, checked above

  std::vector<int8_t> la(kLimbs * m * k), lb(kLimbs * k * n);
  {
    StageClock clock(r, "limbs", cheap);
    auto split = [&](const std::vector<double>& values, std::vector<int8_t>& limbs, const char* name) {
      const size_t count = values.size();
      int8_t d[kLimbs];
      for (size_t x = 0; x < count; ++x) {
        const int64_t v = static_cast<int64_t>(values[x]);
        const bool fits = to_base13(v, kLimbs, d);
        int64_t back = 0;
        for (int q = kLimbs - 1; q >= 0; --q) {
          limbs[static_cast<size_t>(q) * count + x] = d[q];
          back = back * 13 + d[q];
          if (cheap && (!in_digit_set(d[q]) || !lowp.representable(d[q])))
            clock.report().violate(std::string(name) + " digit " + std::to_string(d[q]) + " of " + std::to_string(v) + " is not in S");
        }
        // Contract: the digits add back to the value.
        if (cheap && (!fits || back != v))
          clock.report().violate(std::string(name) + " digits of " + std::to_string(v) + " add back to " + std::to_string(back));
      }
    };
    split(a.data, la, "A");
    split(b.data, lb, "B");
    if (trace) {
      trace->add("limbs", "a", stage_array(DType::I1, {size_t(kLimbs), m, k}, la));
      trace->add("limbs", "b", stage_array(DType::I1, {size_t(kLimbs), k, n}, lb));
    }
  }
  std::vector<uint32_t> cg(kLimbs * kLimbs * m * n);
  {
    StageClock clock(r, "gemm", full);
    for (int i = 0; i < kLimbs; ++i)
      for (int j = 0; j < kLimbs; ++j) {
        const size_t g = static_cast<size_t>(i * kLimbs + j);
        const int8_t* a_op = &la[static_cast<size_t>(i) * m * k];
        const int8_t* b_op = &lb[static_cast<size_t>(j) * k * n];
        const std::vector<uint32_t> d = lowp.run(m, n, k, a_op, b_op, o.threads);
        std::copy(d.begin(), d.end(), cg.begin() + static_cast<long>(g * m * n));
        ++r.low_precision_gemms;
        if (full) {
          const std::string label = "GEMM A_" + std::to_string(i) + " B_" + std::to_string(j);
          const size_t wrong = check_lowp_gemm(lowp, m, n, k, a_op, b_op, false, d, label, clock.report());
          if (wrong) clock.report().note(label + ": " + std::to_string(wrong) + " of " + std::to_string(m * n) + " elements not exact");
        }
      }
    if (trace) trace->add("gemm", "c", stage_array(DType::F4, {size_t(kLimbs * kLimbs), m, n}, cg));
  }
  std::vector<int32_t> c(m * n);
  {
    StageClock clock(r, "combine", full);
    for (size_t x = 0; x < m * n; ++x) {
      int64_t sum = 0, weight13[2 * kLimbs - 1] = {1, 13, 169, 2197, 28561};
      bool integral = true;
      for (int i = 0; i < kLimbs; ++i)
        for (int j = 0; j < kLimbs; ++j) {
          const int64_t v = lowp.integer_output(cg[static_cast<size_t>(i * kLimbs + j) * m * n + x]);
          integral = integral && v != kNotInteger;
          sum += weight13[i + j] * (v == kNotInteger ? 0 : v);
        }
      c[x] = static_cast<int32_t>(static_cast<uint32_t>(sum));  // INT32 wraparound, as the INT8 MMA
      if (full && !integral) clock.report().violate("C" + index3(0, x / n, x % n) + " combines a non-integer GEMM output");
    }
    if (full) {
      // Contract: bit for bit the INT8 GEMM of the original operands (exact sum, wrapped to INT32),
      // computed straight from A and B.
      std::vector<int64_t> row(n);
      for (size_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), 0);
        for (size_t kk = 0; kk < k; ++kk)
          for (size_t j = 0; j < n; ++j) row[j] += static_cast<int64_t>(a(i, kk)) * static_cast<int64_t>(b(kk, j));
        for (size_t j = 0; j < n; ++j) {
          const int32_t want = static_cast<int32_t>(static_cast<uint32_t>(row[j]));
          if (want != c[i * n + j])
            clock.report().violate("C" + index3(0, i, j) + " = " + std::to_string(c[i * n + j]) + ", the INT8 GEMM gives " + std::to_string(want));
        }
      }
    }
    if (trace) trace->add("combine", "c", stage_array(DType::I4, {m, n}, c));
  }
  r.c = Matrix<double>(m, n);
  for (size_t x = 0; x < m * n; ++x) r.c.data[x] = c[x];
  r.pipeline_seconds = seconds_since(t_start);
  finish_run(r, a, b, r.c.data, true, o.threads, t_start);
  return r;
}

}  // namespace ozref::schemes
