// The crt and unscale stages of the Ozaki-II pipeline, for one output (real) or two (complex).
#include <algorithm>
#include <cmath>

#include "schemes/ozaki2/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {

void reconstruct(Context& c, const Buffer<int16_t>& residues, size_t outputs, const Converted& x,
                 const std::vector<int64_t>& correction, std::vector<Matrix<double>>& out) {
  const size_t N = c.N, m = c.m, n = c.n, mn = m * n;
  const bool dd = c.o.crt == CrtVariant::DoubleDouble;
  // Exact and Garner in 128-bit integers when P < 2^126 (up to 16 INT8 moduli), else with GMP.
  const bool wide = !dd && c.crt.fits_int128();
  Buffer<__int128> cwide(wide ? outputs * mn : 0);
  std::vector<mpz_class> cint(wide ? 0 : outputs * mn);
  std::vector<double> hi(c.trace || dd ? outputs * mn : 0), lo(c.trace || dd ? outputs * mn : 0);
  {
    StageClock clock(c.r, "crt", c.cheap);
    auto gather = [&](size_t o, size_t v, int32_t* res) {
      for (size_t t = 0; t < N; ++t) res[t] = residues[(t * outputs + o) * mn + v];
    };
    // The integers, in parallel over blocks; the checks after, in element order (a deterministic
    // report). The exact variant below 2^126 works on whole blocks of the residue planes.
    constexpr size_t kBlock = 4096;
    const size_t blocks = (mn + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) collapse(2) num_threads(c.threads)
    for (size_t o = 0; o < outputs; ++o)
      for (size_t blk = 0; blk < blocks; ++blk) {
        const size_t v0 = blk * kBlock, v1 = std::min(mn, v0 + kBlock);
        if (wide && c.o.crt == CrtVariant::Exact) {
          const int16_t* planes[64];
          for (size_t t = 0; t < N; ++t) planes[t] = &residues[(t * outputs + o) * mn + v0];
          c.crt.exact_int128(planes, v1 - v0, &cwide[o * mn + v0]);
        }
        if (wide && c.o.crt == CrtVariant::Exact && !c.trace) continue;  // nothing per element
        for (size_t at = o * mn + v0; at < o * mn + v1; ++at) {
          int32_t res[64];
          gather(o, at % mn, res);
          if (wide) {
            if (c.o.crt == CrtVariant::Garner) cwide[at] = c.crt.garner_int128(res);
            if (c.trace) {
              hi[at] = nearest_double(cwide[at], 0);
              lo[at] = nearest_double(cwide[at] - static_cast<__int128>(hi[at]), 0);
            }
          } else if (dd) {
            c.crt.double_double(res, hi[at], lo[at]);
            cint[at] = mpz_class(mpq_class(hi[at]) + mpq_class(lo[at]));  // integer part, for the check
          } else {
            cint[at] = c.o.crt == CrtVariant::Exact ? c.crt.exact(res) : c.crt.garner(res);
            if (c.trace) {
              hi[at] = nearest_double(cint[at], 0);
              lo[at] = nearest_double(cint[at] - mpz_class(mpq_class(hi[at])), 0);
            }
          }
        }
      }
    for (size_t at = 0; c.cheap && at < outputs * mn; ++at) {
      const size_t o = at / mn, v = at % mn;
      int32_t res[64];
      gather(o, v, res);
      if (dd) {
        // Contract of the double-double form: within 2^-48 P of the exact integer.
        const mpz_class exact = c.crt.exact(res);
        if (mpq_class(abs(exact - cint[at])) > mpq_class(c.crt.product()) / (mpz_class(1) << 48))
          clock.report().violate("C'" + index3(o, v / n, v % n) + " (dd) is more than 2^-48 P from the exact integer");
        continue;
      }
      // Contract: congruent to every residue and inside (-P/2, P/2]. With the earlier stages
      // (residues congruent to the integers, each product residue equal to that of the integer
      // product, and the bound of truncate) this makes C' the exact integer product.
      const mpz_class value = wide ? mpz_from_int128(cwide[at]) : cint[at];
      for (size_t t = 0; t < N; ++t)
        if (mpz_fdiv_ui(mpz_class(value - res[t]).get_mpz_t(), static_cast<unsigned long>(c.moduli[t])) != 0) {
          clock.report().violate("C'" + index3(o, v / n, v % n) + " is not congruent to its residue mod " + std::to_string(c.moduli[t]));
          break;
        }
      if (2 * abs(value) > c.crt.product()) clock.report().violate("C'" + index3(o, v / n, v % n) + " is outside (-P/2, P/2]");
    }
    if (c.trace) {
      const std::vector<size_t> shape = outputs == 1 ? std::vector<size_t>{m, n} : std::vector<size_t>{outputs, m, n};
      c.trace->add("crt", "hi", stage_array(DType::F8, shape, hi));
      c.trace->add("crt", "lo", stage_array(DType::F8, shape, lo));
    }
  }
  StageClock clock(c.r, "unscale", c.cheap);
  out.assign(outputs, Matrix<double>(m, n));
  // exact and garner: the correctly rounded C' 2^e; dd: as GEMMul8, (hi + lo) scaled. rare adds
  // its correction (corr1 + corr2) 2^(bits_eff - 15) before the one rounding.
  auto total_wide = [&](size_t at, size_t v) {
    return cwide[at] + (c.rare ? static_cast<__int128>(correction[v]) << (x.bits_eff - 15) : 0);
  };
  auto total_gmp = [&](size_t at, size_t v) {
    return c.rare ? mpz_class(cint[at] + (mpz_class(static_cast<long>(correction[v])) << (x.bits_eff - 15))) : cint[at];
  };
  auto exponent = [&](size_t v) { return -(x.row_shift[v / n] + x.col_shift[v % n]); };
#pragma omp parallel for schedule(static) num_threads(c.threads)
  for (size_t at = 0; at < outputs * mn; ++at) {
    const size_t v = at % mn;
    double& result = out[at / mn].data[v];
    if (wide) result = nearest_double(total_wide(at, v), exponent(v));
    else if (dd) result = std::ldexp(hi[at] + lo[at] + (c.rare ? std::ldexp(double(correction[v]), x.bits_eff - 15) : 0.0), exponent(v));
    else result = nearest_double(total_gmp(at, v), exponent(v));
  }
  for (size_t at = 0; c.cheap && !dd && at < outputs * mn; ++at) {
    const size_t v = at % mn;
    const mpz_class total = wide ? mpz_from_int128(total_wide(at, v)) : total_gmp(at, v);
    if (!is_correct_rounding(total, exponent(v), out[at / mn].data[v]))
      clock.report().violate("C" + index3(at / mn, v / n, v % n) + " is not C' 2^e correctly rounded");
  }
  if (c.trace) {
    if (outputs == 1) {
      c.trace->add("unscale", "c", stage_array(DType::F8, {m, n}, out[0].data));
    } else {
      std::vector<double> both(out[0].data);
      both.insert(both.end(), out[1].data.begin(), out[1].data.end());
      c.trace->add("unscale", "c", stage_array(DType::F8, {2, m, n}, both));
    }
  }
}

}  // namespace ozref::schemes::ozaki2
