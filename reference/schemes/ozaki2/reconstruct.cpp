// The crt and unscale stages of the Ozaki-II pipeline, for one output (real) or two (complex).
#include <cmath>

#include "schemes/ozaki2/stages.hpp"
#include "schemes/stage_tools.hpp"

namespace ozref::schemes::ozaki2 {

void reconstruct(Context& c, const std::vector<int16_t>& residues, size_t outputs, const Converted& x,
                 const std::vector<int64_t>& correction, std::vector<Matrix<double>>& out) {
  const size_t N = c.N, m = c.m, n = c.n, mn = m * n;
  const bool dd = c.o.crt == CrtVariant::DoubleDouble;
  std::vector<mpz_class> cint(outputs * mn);
  std::vector<double> hi(outputs * mn), lo(outputs * mn);
  {
    StageClock clock(c.r, "crt", c.cheap);
    std::vector<int32_t> res(N);
    for (size_t o = 0; o < outputs; ++o)
      for (size_t v = 0; v < mn; ++v) {
        const size_t at = o * mn + v;
        for (size_t t = 0; t < N; ++t) res[t] = residues[(t * outputs + o) * mn + v];
        if (dd) {
          c.crt.double_double(res.data(), hi[at], lo[at]);
          cint[at] = mpz_class(mpq_class(hi[at]) + mpq_class(lo[at]));  // integer part, for the check
        } else {
          cint[at] = c.o.crt == CrtVariant::Exact ? c.crt.exact(res.data()) : c.crt.garner(res.data());
          hi[at] = nearest_double(cint[at], 0);
          lo[at] = nearest_double(cint[at] - mpz_class(mpq_class(hi[at])), 0);
        }
        if (!c.cheap) continue;
        if (dd) {
          // Contract of the double-double form: within 2^-48 P of the exact integer.
          const mpz_class exact = c.crt.exact(res.data());
          if (mpq_class(abs(exact - cint[at])) > mpq_class(c.crt.product()) / (mpz_class(1) << 48))
            clock.report().violate("C'" + index3(o, v / n, v % n) + " (dd) is more than 2^-48 P from the exact integer");
          continue;
        }
        // Contract: congruent to every residue and inside (-P/2, P/2]. With the earlier stages
        // (residues congruent to the integers, each product residue equal to that of the
        // integer product, and the bound of truncate) this makes C' the exact integer product.
        for (size_t t = 0; t < N; ++t)
          if (mpz_fdiv_ui(mpz_class(cint[at] - res[t]).get_mpz_t(), static_cast<unsigned long>(c.moduli[t])) != 0) {
            clock.report().violate("C'" + index3(o, v / n, v % n) + " is not congruent to its residue mod " + std::to_string(c.moduli[t]));
            break;
          }
        if (2 * abs(cint[at]) > c.crt.product()) clock.report().violate("C'" + index3(o, v / n, v % n) + " is outside (-P/2, P/2]");
      }
    if (c.trace) {
      const std::vector<size_t> shape = outputs == 1 ? std::vector<size_t>{m, n} : std::vector<size_t>{outputs, m, n};
      c.trace->add("crt", "hi", stage_array(DType::F8, shape, hi));
      c.trace->add("crt", "lo", stage_array(DType::F8, shape, lo));
    }
  }
  out.assign(outputs, Matrix<double>(m, n));
  StageClock clock(c.r, "unscale", c.cheap);
  for (size_t o = 0; o < outputs; ++o)
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        const int e = -(x.row_shift[i] + x.col_shift[j]);
        const size_t v = i * n + j, at = o * mn + v;
        // exact and garner: the correctly rounded C' 2^e; dd: as GEMMul8, (hi + lo) scaled.
        // rare adds its correction (corr1 + corr2) 2^(bits_eff - 15) before the one rounding.
        const mpz_class total = c.rare ? cint[at] + (mpz_class(static_cast<long>(correction[v])) << (x.bits_eff - 15)) : cint[at];
        const double sum = hi[at] + lo[at] + (c.rare ? std::ldexp(double(correction[v]), x.bits_eff - 15) : 0.0);
        out[o](i, j) = dd ? std::ldexp(sum, e) : nearest_double(total, e);
        if (c.cheap && !dd && !is_correct_rounding(total, e, out[o](i, j)))
          clock.report().violate("C" + index3(o, i, j) + " is not C' 2^e correctly rounded");
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
