#include "schemes/ozaki2/int8_scheme.hpp"

#include <chrono>
#include <cmath>
#include <cstring>

#include "common/error.hpp"
#include "mma/gemm.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

void check_inputs(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Int8Options& o) {
  if (a.cols != b.rows) throw InputError("ozaki2-int8: A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) +
                                         " but B is " + std::to_string(b.rows) + "x" + std::to_string(b.cols));
  if (o.moduli < 2 || o.moduli > int8_moduli().size())
    throw InputError("ozaki2-int8: --moduli must be 2..20, got " + std::to_string(o.moduli));
  if (a.cols > 131071)
    throw InputError("ozaki2-int8: K = " + std::to_string(a.cols) +
                     " exceeds the INT32 bound of one INT8 GEMM per modulus (K * 128^2 < 2^31, K <= 131071)");
  require_finite(a, "ozaki2-int8", "A");
  require_finite(b, "ozaki2-int8", "B");
}

}  // namespace

SchemeResult run_ozaki2_int8(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Int8Options& o,
                             TraceWriter* trace) {
  check_inputs(a, b, o);
  const auto t_start = std::chrono::steady_clock::now();
  const size_t m = a.rows, k = a.cols, n = b.cols, kp = (k + 31) / 32 * 32, N = o.moduli;
  const std::vector<int64_t> moduli(int8_moduli().begin(), int8_moduli().begin() + static_cast<long>(N));
  const Crt crt(moduli);
  const double log2_bound = std::log2(crt.product().get_d()) - 2;  // sum |A'||B'| <= 2^L <= P/4
  const mma::InstructionSpec& int8 = mma::instruction(mma::arch(o.arch), "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
  const bool cheap = o.verify != Verify::None, full = o.verify == Verify::Full;
  SchemeResult r;

  // scale
  Scaling sc;
  {
    StageClock clock(r, "scale", cheap);
    sc = choose_scaling(a, b, log2_bound, o.mode, int8, o.threads);
    r.low_precision_gemms += sc.extra_gemms;
    if (trace) {
      trace->add("scale", "row_shift", stage_array(DType::I4, {m}, sc.row_shift));
      trace->add("scale", "col_shift", stage_array(DType::I4, {n}, sc.col_shift));
    }
  }
  // truncate
  Matrix<double> ap(m, k), bp(k, n);
  {
    StageClock clock(r, "truncate", cheap);
    for (size_t i = 0; i < m; ++i)
      for (size_t kk = 0; kk < k; ++kk) ap(i, kk) = std::trunc(std::ldexp(a(i, kk), sc.row_shift[i]));
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) bp(kk, j) = std::trunc(std::ldexp(b(kk, j), sc.col_shift[j]));
    if (cheap) {
      // Contract: integers within one unit of the scaled input, toward zero; and the scheme's
      // bound sum_k |A'||B'| <= ||A'_i|| ||B'_j|| <= 2^L (80-bit sums, 2^-40 margin).
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk) {
          const long double x = std::ldexp(static_cast<long double>(a(i, kk)), sc.row_shift[i]);
          if (ap(i, kk) != std::trunc(x)) clock.report().violate("A'" + index3(0, i, kk) + " is not trunc(A 2^s)");
        }
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) {
          const long double x = std::ldexp(static_cast<long double>(b(kk, j)), sc.col_shift[j]);
          if (bp(kk, j) != std::trunc(x)) clock.report().violate("B'" + index3(0, kk, j) + " is not trunc(2^t B)");
        }
      std::vector<long double> ra(m, 0), cb(n, 0);
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk) ra[i] += static_cast<long double>(ap(i, kk)) * ap(i, kk);
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) cb[j] += static_cast<long double>(bp(kk, j)) * bp(kk, j);
      const long double half_p = static_cast<long double>(crt.product().get_d()) / 2;
      r.exactness_conditions = true;
      for (size_t i = 0; i < m && r.exactness_conditions; ++i)
        for (size_t j = 0; j < n; ++j)
          if (std::sqrt(ra[i] * cb[j]) * (1 + 0x1p-40L) >= half_p) {
            r.exactness_conditions = false;
            clock.report().violate("the CRT bound sum |A'||B'| < P/2 fails at C" + index3(0, i, j));
            break;
          }
    }
    if (trace) {
      trace->add("truncate", "a", stage_array(DType::F8, {m, k}, ap.data));
      trace->add("truncate", "b", stage_array(DType::F8, {k, n}, bp.data));
    }
  }
  // residues
  std::vector<int8_t> ra(N * m * k), rb(N * k * n);
  {
    StageClock clock(r, "residues", cheap);
    for (size_t t = 0; t < N; ++t) {
      for (size_t x = 0; x < m * k; ++x) ra[t * m * k + x] = int8_t(balanced_residue_of_integer(ap.data[x], moduli[t]));
      for (size_t x = 0; x < k * n; ++x) rb[t * k * n + x] = int8_t(balanced_residue_of_integer(bp.data[x], moduli[t]));
    }
    if (cheap) {
      // Contract: in the balanced range and congruent (checked through fmod, exact for doubles).
      auto check = [&](const std::vector<int8_t>& res, const std::vector<double>& ints, const char* name) {
        const size_t count = ints.size();
        for (size_t t = 0; t < N; ++t)
          for (size_t x = 0; x < count; ++x) {
            const int64_t p = moduli[t], v = res[t * count + x];
            const int64_t rem = int64_t(std::fmod(ints[x], double(p)));  // exact for doubles
            if (v < -(p / 2) || v > (p - 1) / 2 || (rem - v) % p != 0)
              clock.report().violate(std::string(name) + " residue " + std::to_string(v) + " of " + std::to_string(ints[x]) +
                                     " mod " + std::to_string(p));
          }
      };
      check(ra, ap.data, "A'");
      check(rb, bp.data, "B'");
    }
    if (trace) {
      trace->add("residues", "a", stage_array(DType::I1, {N, m, k}, ra));
      trace->add("residues", "b", stage_array(DType::I1, {N, k, n}, rb));
    }
  }
  // gemm: one INT8 GEMM per modulus through the MMA model
  std::vector<int32_t> cg(N * m * n);
  {
    StageClock clock(r, "gemm", full);
    std::vector<uint8_t> ga(m * kp), gb(n * kp);
    for (size_t t = 0; t < N; ++t) {
      std::fill(ga.begin(), ga.end(), 0);
      std::fill(gb.begin(), gb.end(), 0);
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk) ga[i * kp + kk] = uint8_t(ra[t * m * k + i * k + kk]);
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) gb[j * kp + kk] = uint8_t(rb[t * k * n + kk * n + j]);
      const std::vector<uint32_t> d = mma::gemm(int8, {m, n, kp, ga, gb, {}, {}, {}}, {.threads = o.threads});
      std::memcpy(&cg[t * m * n], d.data(), d.size() * 4);
      ++r.low_precision_gemms;
      if (full)  // Contract: the exact integer product of the residues (so no INT32 wraparound).
        for (size_t i = 0; i < m; ++i)
          for (size_t j = 0; j < n; ++j) {
            int64_t exact = 0;
            for (size_t kk = 0; kk < k; ++kk) exact += int64_t(ra[t * m * k + i * k + kk]) * rb[t * k * n + kk * n + j];
            if (exact != cg[t * m * n + i * n + j])
              clock.report().violate("modulus " + std::to_string(moduli[t]) + " C" + index3(t, i, j) + " = " +
                                     std::to_string(cg[t * m * n + i * n + j]) + ", exact " + std::to_string(exact));
          }
    }
    if (trace) trace->add("gemm", "c", stage_array(DType::I4, {N, m, n}, cg));
  }
  // reduce
  std::vector<int8_t> cr(N * m * n);
  {
    StageClock clock(r, "reduce", cheap);
    for (size_t t = 0; t < N; ++t) {
      const BarrettReducer red(moduli[t]);
      for (size_t x = 0; x < m * n; ++x) {
        const int32_t v = red.reduce(cg[t * m * n + x]);
        cr[t * m * n + x] = int8_t(v);
        if (cheap && (v < -(moduli[t] / 2) || v > (moduli[t] - 1) / 2 || (int64_t(cg[t * m * n + x]) - v) % moduli[t] != 0))
          clock.report().violate("reduce " + std::to_string(cg[t * m * n + x]) + " mod " + std::to_string(moduli[t]) + " gave " +
                                 std::to_string(v));
      }
    }
    if (trace) trace->add("reduce", "c", stage_array(DType::I1, {N, m, n}, cr));
  }
  // crt
  std::vector<mpz_class> cint(m * n);
  std::vector<double> hi(m * n), lo(m * n);
  {
    StageClock clock(r, "crt", cheap);
    std::vector<int32_t> res(N);
    for (size_t x = 0; x < m * n; ++x) {
      for (size_t t = 0; t < N; ++t) res[t] = cr[t * m * n + x];
      if (o.crt == CrtVariant::DoubleDouble) {
        crt.double_double(res.data(), hi[x], lo[x]);
        cint[x] = mpz_class(mpq_class(hi[x]) + mpq_class(lo[x]));  // integer part, for the check
      } else {
        cint[x] = o.crt == CrtVariant::Exact ? crt.exact(res.data()) : crt.garner(res.data());
        hi[x] = nearest_double(cint[x], 0);
        lo[x] = nearest_double(cint[x] - mpz_class(mpq_class(hi[x])), 0);
      }
      if (cheap && o.crt == CrtVariant::DoubleDouble) {
        // Contract of the double-double form: within 2^-48 P of the exact integer.
        const mpz_class exact = crt.exact(res.data());
        if (mpq_class(abs(exact - cint[x])) > mpq_class(crt.product()) / (mpz_class(1) << 48))
          clock.report().violate("C'" + index3(0, x / n, x % n) + " (dd) is more than 2^-48 P from the exact integer");
      } else if (cheap) {
        // Contract: congruent to every residue, inside the CRT range; with the bound of the
        // truncate stage this makes C' the exact integer product A'B' (CRT uniqueness).
        for (size_t t = 0; t < N; ++t)
          if (mpz_fdiv_ui(mpz_class(cint[x] - res[t]).get_mpz_t(), static_cast<unsigned long>(moduli[t])) != 0) {
            clock.report().violate("C'" + index3(0, x / n, x % n) + " is not congruent to its residue mod " + std::to_string(moduli[t]));
            break;
          }
        if (2 * abs(cint[x]) > crt.product()) clock.report().violate("C'" + index3(0, x / n, x % n) + " is outside (-P/2, P/2]");
      }
    }
    if (full && o.crt != CrtVariant::DoubleDouble) {
      // The product A'B' itself, modulo each modulus, from fmod residues (independent of the
      // residues stage): C' must match it, which (with |A'B'| < P/2) proves C' == A'B'.
      for (size_t t = 0; t < N && clock.report().violations == 0; ++t) {
        const double p = double(moduli[t]);
        std::vector<int64_t> am(m * k), bm(k * n);
        for (size_t x = 0; x < m * k; ++x) am[x] = int64_t(std::fmod(ap.data[x], p));
        for (size_t x = 0; x < k * n; ++x) bm[x] = int64_t(std::fmod(bp.data[x], p));
        for (size_t i = 0; i < m; ++i)
          for (size_t j = 0; j < n; ++j) {
            int64_t s = 0;
            for (size_t kk = 0; kk < k; ++kk) s = (s + am[i * k + kk] * bm[kk * n + j]) % moduli[t];
            if (mpz_fdiv_ui(mpz_class(cint[i * n + j] - s).get_mpz_t(), static_cast<unsigned long>(moduli[t])) != 0) {
              clock.report().violate("C'" + index3(0, i, j) + " differs from A'B' modulo " + std::to_string(moduli[t]));
              break;
            }
          }
      }
    }
    if (trace) {
      trace->add("crt", "hi", stage_array(DType::F8, {m, n}, hi));
      trace->add("crt", "lo", stage_array(DType::F8, {m, n}, lo));
    }
  }
  // unscale
  r.c = Matrix<double>(m, n);
  {
    StageClock clock(r, "unscale", cheap);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        const int e = -(sc.row_shift[i] + sc.col_shift[j]);
        const size_t x = i * n + j;
        // exact and garner: the correctly rounded C' 2^e; dd: as GEMMul8, (hi + lo) scaled.
        r.c(i, j) = o.crt == CrtVariant::DoubleDouble ? std::ldexp(hi[x] + lo[x], e) : nearest_double(cint[x], e);
        if (cheap && o.crt != CrtVariant::DoubleDouble && !is_correct_rounding(cint[x], e, r.c(i, j)))
          clock.report().violate("C" + index3(0, i, j) + " is not C' 2^e correctly rounded");
      }
    if (trace) trace->add("unscale", "c", stage_array(DType::F8, {m, n}, r.c.data));
  }
  // The double-double reconstruction is approximate by design: never exact.
  finish_run(r, a, b, o.crt != CrtVariant::DoubleDouble, o.threads, t_start);
  return r;
}

}  // namespace ozref::schemes
