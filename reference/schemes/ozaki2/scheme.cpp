#include "schemes/ozaki2/scheme.hpp"

#include <chrono>
#include <omp.h>

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes {
namespace {

void check_inputs(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Options& o, size_t count) {
  const Ozaki2Family& f = ozaki2_family(o.variant);
  const char* name = f.scheme.c_str();
  if (a.cols != b.rows)
    throw InputError(f.scheme + ": A is " + std::to_string(a.rows) + "x" + std::to_string(a.cols) + " but B is " +
                     std::to_string(b.rows) + "x" + std::to_string(b.cols));
  if (count < 2 || count > f.moduli.size())
    throw InputError(f.scheme + ": --moduli must be 2.." + std::to_string(f.moduli.size()) + ", got " + std::to_string(count));
  if (a.cols > ozaki2_max_k(o.variant))
    throw InputError(f.scheme + ": K = " + std::to_string(a.cols) + " exceeds the bound " + std::to_string(ozaki2_max_k(o.variant)) +
                     " under which one low-precision GEMM per limb pair stays exact (docs/proofs.md)");
  require_finite(a, name, "A");
  require_finite(b, name, "B");
}

// Whether sum_k |A'_ik| |B'_kj| < P/2 for the element: Cauchy-Schwarz first (cheap), then, where
// that is not enough, the sum itself (80-bit, with a margin for its rounding).
bool within_crt_range(const Matrix<double>& ap, const Matrix<double>& bp, size_t i, size_t j, long double cs_bound,
                      long double half_p) {
  if (cs_bound * (1 + 0x1p-40L) < half_p) return true;
  long double sum = 0;
  for (size_t kk = 0; kk < ap.cols; ++kk) sum += std::fabs(static_cast<long double>(ap(i, kk)) * bp(kk, j));
  return sum * (1 + static_cast<long double>(ap.cols + 2) * 0x1p-63L) < half_p;
}

}  // namespace

size_t ozaki2_max_k(Ozaki2Variant v) {
  return v == Ozaki2Variant::Fp8 ? 65536 : v == Ozaki2Variant::Fp4 ? 116509 : 131071;
}

SchemeResult run_ozaki2(const Matrix<double>& a, const Matrix<double>& b, const Ozaki2Options& o, TraceWriter* trace) {
  const Ozaki2Family& family = ozaki2_family(o.variant);
  const bool rare_variant = o.variant == Ozaki2Variant::Rare;
  const size_t N = o.moduli ? o.moduli : rare_variant ? rare::default_moduli(a.cols) : family.default_count;
  check_inputs(a, b, o, N);
  const LowpGemm lowp(scheme_instruction(o.arch, family.format, o.op, family.scheme), family.format);
  const auto t_start = std::chrono::steady_clock::now();
  const size_t m = a.rows, k = a.cols, n = b.cols;
  const bool int8 = family.format == LowpFormat::Int8;
  const std::vector<std::unique_ptr<ModularProduct>> products = make_products(o.variant, N, k);
  std::vector<int64_t> moduli;
  for (const auto& p : products) moduli.push_back(p->modulus());
  const Crt crt(moduli);
  const double log2_bound = std::log2(crt.product().get_d()) - 2;  // sum |A'||B'| <= 2^L <= P/4
  const bool cheap = o.verify != Verify::None, full = o.verify == Verify::Full;
  SchemeResult r;

  Scaling sc;
  int bits_eff = 0;  // rare: the operand width after the global gain
  {
    StageClock clock(r, "scale", cheap);
    if (rare_variant) {
      const rare::Scaling rs = rare::choose_scaling(a, b, std::log2(crt.product().get_d()));
      sc.row_shift = rs.row_shift;
      sc.col_shift = rs.col_shift;
      bits_eff = rs.bits_eff;
    } else {
      sc = choose_scaling(a, b, log2_bound, o.mode, lowp, o.threads);
    }
    r.low_precision_gemms += sc.extra_gemms;
    // Contract (accurate mode, full): the bound GEMM is exact, so C_hi really bounds |A||B|.
    if (full && sc.extra_gemms)
      check_lowp_gemm(lowp, m, n, k, sc.bound_a.data(), sc.bound_b.data(), sc.bound_c, "bound GEMM |A|'|B|'", clock.report());
    if (trace) {
      trace->add("scale", "row_shift", stage_array(DType::I4, {m}, sc.row_shift));
      trace->add("scale", "col_shift", stage_array(DType::I4, {n}, sc.col_shift));
      if (rare_variant) trace->add("scale", "bits_eff", stage_array(DType::I4, {1}, std::vector<int>{bits_eff}));
    }
  }
  // truncate (GEMMul8: toward zero) or round (rare: nearest-even, with the correction planes)
  Matrix<double> ap(m, k), bp(k, n);
  std::vector<int8_t> hi_a, q_a, hi_b, q_b;
  {
    const char* stage = rare_variant ? "round" : "truncate";
    StageClock clock(r, stage, cheap);
    if (rare_variant) {
      hi_a.resize(m * k), q_a.resize(m * k), hi_b.resize(k * n), q_b.resize(k * n);
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk) {
          const rare::Rounded v = rare::round_element(a(i, kk), sc.row_shift[i], bits_eff);
          ap(i, kk) = v.value, hi_a[i * k + kk] = v.hi7, q_a[i * k + kk] = v.q7;
        }
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) {
          const rare::Rounded v = rare::round_element(b(kk, j), sc.col_shift[j], bits_eff);
          bp(kk, j) = v.value, hi_b[kk * n + j] = v.hi7, q_b[kk * n + j] = v.q7;
        }
    } else {
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk) ap(i, kk) = std::trunc(std::ldexp(a(i, kk), sc.row_shift[i]));
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) bp(kk, j) = std::trunc(std::ldexp(b(kk, j), sc.col_shift[j]));
    }
    if (cheap) {
      // Contract: the integer of the scaled input, toward zero or to nearest-even (recomputed in
      // 80-bit arithmetic: x 2^s is exact there); rare also |A~| <= 2^bits_eff and the correction
      // planes hi7 = rne(A~ 2^(7 - bits_eff)), q7 = rne(x 2^(s+8)) - 2^8 A~ (clamped to +-127);
      // and the scheme's condition sum_k |A'||B'| < P/2 for every element.
      auto check = [&](double x, int shift, double got, const int8_t* hi, const int8_t* q, const std::string& where) {
        const long double scaled = std::ldexp(static_cast<long double>(x), shift);
        const long double want = rare_variant ? std::nearbyint(scaled) : std::trunc(scaled);
        if (got != want) clock.report().violate(where + " is not the integer of the scaled input");
        if (!rare_variant) return;
        if (std::fabs(want) > std::ldexp(1.0L, bits_eff)) clock.report().violate(where + " exceeds 2^bits_eff");
        const long double h = std::clamp(std::nearbyint(std::ldexp(want, 7 - bits_eff)), -127.0L, 127.0L);
        const long double c = std::clamp(std::nearbyint(std::ldexp(scaled, 8)) - want * 256, -127.0L, 127.0L);
        if (*hi != h || *q != c) clock.report().violate(where + ": correction planes (" + std::to_string(*hi) + ", " + std::to_string(*q) + ")");
      };
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk)
          check(a(i, kk), sc.row_shift[i], ap(i, kk), rare_variant ? &hi_a[i * k + kk] : nullptr,
                rare_variant ? &q_a[i * k + kk] : nullptr, "A'" + index3(0, i, kk));
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j)
          check(b(kk, j), sc.col_shift[j], bp(kk, j), rare_variant ? &hi_b[kk * n + j] : nullptr,
                rare_variant ? &q_b[kk * n + j] : nullptr, "B'" + index3(0, kk, j));
      std::vector<long double> ra(m, 0), cb(n, 0);
      for (size_t i = 0; i < m; ++i)
        for (size_t kk = 0; kk < k; ++kk) ra[i] += static_cast<long double>(ap(i, kk)) * ap(i, kk);
      for (size_t kk = 0; kk < k; ++kk)
        for (size_t j = 0; j < n; ++j) cb[j] += static_cast<long double>(bp(kk, j)) * bp(kk, j);
      const long double half_p = static_cast<long double>(crt.product().get_d()) / 2 * (1 - 0x1p-50L);
      r.exactness_conditions = true;
      for (size_t i = 0; i < m && r.exactness_conditions; ++i)
        for (size_t j = 0; j < n; ++j)
          if (!within_crt_range(ap, bp, i, j, std::sqrt(ra[i] * cb[j]), half_p)) {
            r.exactness_conditions = false;
            clock.report().violate("the CRT bound sum |A'||B'| < P/2 fails at C" + index3(0, i, j));
            break;
          }
    }
    if (trace) {
      trace->add(stage, "a", stage_array(DType::F8, {m, k}, ap.data));
      trace->add(stage, "b", stage_array(DType::F8, {k, n}, bp.data));
      if (rare_variant) {
        trace->add(stage, "a_hi7", stage_array(DType::I1, {m, k}, hi_a));
        trace->add(stage, "a_q7", stage_array(DType::I1, {m, k}, q_a));
        trace->add(stage, "b_hi7", stage_array(DType::I1, {k, n}, hi_b));
        trace->add(stage, "b_q7", stage_array(DType::I1, {k, n}, q_b));
      }
    }
  }
  // residues: (N, m, k) and (N, k, n), balanced
  std::vector<int16_t> ra(N * m * k), rb(N * k * n);
  {
    StageClock clock(r, "residues", cheap);
    const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (size_t t = 0; t < N; ++t) {
      // rare: fp64-emu's three-limb extraction; the others: from the double's bits.
      auto residue = [&](double v) {
        return int16_t(rare_variant ? rare::limb_residue(v, bits_eff, moduli[t]) : balanced_residue_of_integer(v, moduli[t]));
      };
      for (size_t x = 0; x < m * k; ++x) ra[t * m * k + x] = residue(ap.data[x]);
      for (size_t x = 0; x < k * n; ++x) rb[t * k * n + x] = residue(bp.data[x]);
    }
    if (cheap) {
      // Contract: in the balanced range and congruent. Checked apart from the extraction (which
      // splits the double's bits): the integer itself in int64 (exact below 2^63, where the
      // bound keeps A' and B'), else through fmod (exact for doubles).
      auto check = [&](const std::vector<int16_t>& res, const std::vector<double>& ints, const char* name) {
        const size_t count = ints.size();
#pragma omp parallel for schedule(static) num_threads(threads)
        for (size_t t = 0; t < N; ++t)
          for (size_t x = 0; x < count; ++x) {
            const int64_t p = moduli[t], v = res[t * count + x];
            const int64_t rem = std::fabs(ints[x]) < 0x1p63 ? int64_t(ints[x]) % p : int64_t(std::fmod(ints[x], double(p)));
            if (v < -(p / 2) || v > (p - 1) / 2 || (rem - v) % p != 0) {
#pragma omp critical(residue_violation)
              clock.report().violate(std::string(name) + " residue " + std::to_string(v) + " of " + std::to_string(ints[x]) +
                                     " mod " + std::to_string(p));
            }
          }
      };
      check(ra, ap.data, "A'");
      check(rb, bp.data, "B'");
    }
    if (trace) {
      if (int8) {
        trace->add("residues", "a", stage_array(DType::I1, {N, m, k}, std::vector<int8_t>(ra.begin(), ra.end())));
        trace->add("residues", "b", stage_array(DType::I1, {N, k, n}, std::vector<int8_t>(rb.begin(), rb.end())));
      } else {
        trace->add("residues", "a", stage_array(DType::I2, {N, m, k}, ra));
        trace->add("residues", "b", stage_array(DType::I2, {N, k, n}, rb));
      }
    }
  }
  // split: the limb matrices of every modulus, in modulus order (limb_base[t] is the first).
  std::vector<size_t> limb_base(N + 1, 0);
  for (size_t t = 0; t < N; ++t) limb_base[t + 1] = limb_base[t] + products[t]->limbs();
  const size_t L = limb_base[N];
  std::vector<int8_t> la(L * m * k), lb(L * k * n);
  {
    std::unique_ptr<StageClock> clock = int8 ? nullptr : std::make_unique<StageClock>(r, "split", cheap);
    auto split_all = [&](const std::vector<int16_t>& res, std::vector<int8_t>& limbs, size_t count, const char* name) {
      int8_t l[4];
      for (size_t t = 0; t < N; ++t)
        for (size_t x = 0; x < count; ++x) {
          const int32_t v = res[t * count + x];
          products[t]->split(v, l);
          for (size_t q = 0; q < products[t]->limbs(); ++q) {
            limbs[(limb_base[t] + q) * count + x] = l[q];
            if (clock && cheap && !lowp.representable(l[q]))
              clock->report().violate(std::string(name) + " limb " + std::to_string(l[q]) + " has no exact " + to_string(family.format) + " encoding");
          }
          if (clock && cheap) {
            const std::string why = products[t]->check_split(v, l);
            if (!why.empty()) clock->report().violate(std::string(name) + " " + products[t]->name() + ": " + why);
          }
        }
    };
    split_all(ra, la, m * k, "A");
    split_all(rb, lb, k * n, "B");
    if (clock && trace) {
      trace->add("split", "a", stage_array(DType::I1, {L, m, k}, la));
      trace->add("split", "b", stage_array(DType::I1, {L, k, n}, lb));
    }
  }
  // gemm: every term of every modulus, in modulus order
  std::vector<size_t> term_base(N + 1, 0);
  for (size_t t = 0; t < N; ++t) term_base[t + 1] = term_base[t] + products[t]->terms().size();
  const size_t G = term_base[N];
  std::vector<uint32_t> cg(G * m * n), corr_raw(rare_variant ? 2 * m * n : 0);
  std::vector<int64_t> correction(rare_variant ? m * n : 0);  // rare: corr1 + corr2
  {
    StageClock clock(r, "gemm", full);
    for (size_t t = 0; t < N; ++t)
      for (size_t g = 0; g < products[t]->terms().size(); ++g) {
        const ProductTerm& term = products[t]->terms()[g];
        const int8_t* a_op = &la[(limb_base[t] + term.a_limb) * m * k];
        const int8_t* b_op = &lb[(limb_base[t] + term.b_limb) * k * n];
        const std::vector<uint32_t> d = lowp.run(m, n, k, a_op, b_op, o.threads);
        std::copy(d.begin(), d.end(), cg.begin() + static_cast<long>((term_base[t] + g) * m * n));
        ++r.low_precision_gemms;
        if (full) {
          const std::string label = "modulus " + std::to_string(moduli[t]) + " GEMM " + std::to_string(g) + " (limbs " +
                                    std::to_string(term.a_limb) + "x" + std::to_string(term.b_limb) + ")";
          const size_t wrong = check_lowp_gemm(lowp, m, n, k, a_op, b_op, d, label, clock.report());
          if (wrong) clock.report().note(label + ": " + std::to_string(wrong) + " of " + std::to_string(m * n) + " elements not exact");
        }
      }
    if (rare_variant) {
      // The two correction GEMMs hi7_A q7_B and q7_A hi7_B (INT8, exact: K 127^2 < 2^31).
      const int8_t* ops[2][2] = {{hi_a.data(), q_b.data()}, {q_a.data(), hi_b.data()}};
      for (size_t c = 0; c < 2; ++c) {
        const std::vector<uint32_t> d = lowp.run(m, n, k, ops[c][0], ops[c][1], o.threads);
        for (size_t x = 0; x < m * n; ++x) correction[x] += static_cast<int32_t>(d[x]);
        std::copy(d.begin(), d.end(), corr_raw.begin() + static_cast<long>(c * m * n));
        ++r.low_precision_gemms;
        if (full) check_lowp_gemm(lowp, m, n, k, ops[c][0], ops[c][1], d, c ? "correction q7_A hi7_B" : "correction hi7_A q7_B", clock.report());
      }
    }
    if (trace) {
      trace->add("gemm", "c", stage_array(int8 ? DType::I4 : DType::F4, {G, m, n}, cg));
      if (rare_variant) trace->add("gemm", "correction", stage_array(DType::I4, {2, m, n}, corr_raw));
    }
  }
  // reduce / recombine: the balanced residue of each modulus's product
  std::vector<int16_t> cr(N * m * n);
  {
    StageClock clock(r, int8 ? "reduce" : "recombine", cheap);
    std::vector<int64_t> outs(4);
    for (size_t t = 0; t < N; ++t) {
      const ModularProduct& p = *products[t];
      const size_t terms = p.terms().size();
      for (size_t x = 0; x < m * n; ++x) {
        for (size_t g = 0; g < terms; ++g) outs[g] = lowp.integer_output(cg[(term_base[t] + g) * m * n + x]);
        const int32_t v = p.combine(outs.data());
        cr[t * m * n + x] = int16_t(v);
        if (!cheap) continue;
        // Contract (cheap): balanced and congruent to the weighted sum of the GEMM outputs.
        int64_t sum = 0;
        bool integral = true;
        for (size_t g = 0; g < terms; ++g) {
          integral = integral && outs[g] != kNotInteger;
          sum += p.terms()[g].weight * (outs[g] % p.modulus());
        }
        if (!integral || v < -(p.modulus() / 2) || v > (p.modulus() - 1) / 2 || (sum - v) % p.modulus() != 0)
          clock.report().violate(p.name() + " C" + index3(t, x / n, x % n) + ": residue " + std::to_string(v) +
                                 (integral ? " is not the weighted sum of the GEMM outputs mod m" : " from a non-integer GEMM output"));
      }
      if (!full) continue;
      // Contract (full): equal to the residue of the product of the residue matrices, computed
      // straight from the residues (not from the limbs or the GEMM outputs).
      std::vector<int64_t> row(n);
      for (size_t i = 0; i < m; ++i) {
        std::fill(row.begin(), row.end(), 0);
        for (size_t kk = 0; kk < k; ++kk) {
          const int64_t x = ra[t * m * k + i * k + kk];
          for (size_t j = 0; j < n; ++j) row[j] += x * rb[t * k * n + kk * n + j];
        }
        for (size_t j = 0; j < n; ++j)
          if (balanced_residue(row[j], p.modulus()) != cr[t * m * n + i * n + j])
            clock.report().violate(p.name() + " C" + index3(t, i, j) + " = " + std::to_string(cr[t * m * n + i * n + j]) +
                                   ", the product of the residues is " + std::to_string(balanced_residue(row[j], p.modulus())));
      }
    }
    if (trace) {
      if (int8) trace->add("reduce", "c", stage_array(DType::I1, {N, m, n}, std::vector<int8_t>(cr.begin(), cr.end())));
      else trace->add("recombine", "c", stage_array(DType::I2, {N, m, n}, cr));
    }
  }
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
      if (!cheap) continue;
      if (o.crt == CrtVariant::DoubleDouble) {
        // Contract of the double-double form: within 2^-48 P of the exact integer.
        const mpz_class exact = crt.exact(res.data());
        if (mpq_class(abs(exact - cint[x])) > mpq_class(crt.product()) / (mpz_class(1) << 48))
          clock.report().violate("C'" + index3(0, x / n, x % n) + " (dd) is more than 2^-48 P from the exact integer");
        continue;
      }
      // Contract: congruent to every residue and inside (-P/2, P/2]. With the earlier stages
      // (residues congruent to A' and B', each product residue equal to that of A'B', and the
      // bound of truncate) this makes C' the exact integer product A'B' (CRT uniqueness).
      for (size_t t = 0; t < N; ++t)
        if (mpz_fdiv_ui(mpz_class(cint[x] - res[t]).get_mpz_t(), static_cast<unsigned long>(moduli[t])) != 0) {
          clock.report().violate("C'" + index3(0, x / n, x % n) + " is not congruent to its residue mod " + std::to_string(moduli[t]));
          break;
        }
      if (2 * abs(cint[x]) > crt.product()) clock.report().violate("C'" + index3(0, x / n, x % n) + " is outside (-P/2, P/2]");
    }
    if (trace) {
      trace->add("crt", "hi", stage_array(DType::F8, {m, n}, hi));
      trace->add("crt", "lo", stage_array(DType::F8, {m, n}, lo));
    }
  }
  r.c = Matrix<double>(m, n);
  {
    StageClock clock(r, "unscale", cheap);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        const int e = -(sc.row_shift[i] + sc.col_shift[j]);
        const size_t x = i * n + j;
        // exact and garner: the correctly rounded C' 2^e; dd: as GEMMul8, (hi + lo) scaled.
        // rare adds its correction (corr1 + corr2) 2^(bits_eff - 15) before the one rounding.
        const mpz_class total = rare_variant ? cint[x] + (mpz_class(static_cast<long>(correction[x])) << (bits_eff - 15)) : cint[x];
        const double dd = hi[x] + lo[x] + (rare_variant ? std::ldexp(double(correction[x]), bits_eff - 15) : 0.0);
        r.c(i, j) = o.crt == CrtVariant::DoubleDouble ? std::ldexp(dd, e) : nearest_double(total, e);
        if (cheap && o.crt != CrtVariant::DoubleDouble && !is_correct_rounding(total, e, r.c(i, j)))
          clock.report().violate("C" + index3(0, i, j) + " is not C' 2^e correctly rounded");
      }
    if (trace) trace->add("unscale", "c", stage_array(DType::F8, {m, n}, r.c.data));
  }
  // The double-double reconstruction is approximate by design: never exact.
  finish_run(r, a, b, o.crt != CrtVariant::DoubleDouble, o.threads, t_start);
  return r;
}

}  // namespace ozref::schemes
