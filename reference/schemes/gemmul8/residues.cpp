// residues: GEMMul8's conversion of the truncated integers (trunc_scalbn_to_i32 up to 7 moduli,
// _to_i64 up to 15, _to_fp beyond) and their residues (mod_small, mod_middle, mod_large with its
// table of 2^j mod p). In range these are the balanced residues of A' and B'; an integer beyond
// the width wraps (two's complement: the kernel shifts a 64-bit significand and keeps the low
// bits), and beyond 2^126 the double path would read past its table, which the model refuses.
#include <cmath>
#include <string>

#include "common/error.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/gemmul8/stages.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"

namespace ozref::schemes::gemmul8 {
namespace {

enum class Held { Exact, Wrapped, BeyondTable };

// The integer x (held exactly in a double) as GEMMul8 holds it: modulo 2^bits, two's complement
// (bits 32 or 64), or itself (bits 0; beyond 2^126 its table of 2^j mod p ends: v = 0).
Held hold(double x, int bits, __int128& v) {
  if (bits == 0) {
    const bool in_table = std::fabs(x) < 0x1p126;
    v = in_table ? static_cast<__int128>(x) : 0;
    return in_table ? Held::Exact : Held::BeyondTable;
  }
  if (!std::isfinite(x)) {  // x 2^s beyond 2^1024: a multiple of 2^64, whose low bits the kernel keeps as 0
    v = 0;
    return Held::Wrapped;
  }
  int e = 0;
  const double frac = std::frexp(std::fabs(x), &e);  // |x| = sig * 2^(e - 53)
  const unsigned __int128 sig = static_cast<unsigned __int128>(static_cast<uint64_t>(std::ldexp(frac, 53)));
  const int shift = e - 53;
  unsigned __int128 low = shift >= 64 || shift <= -64 ? 0 : shift >= 0 ? (sig << shift) : (sig >> -shift);  // beyond the width: zero bits
  if (std::signbit(x)) low = 0 - low;
  low &= (static_cast<unsigned __int128>(1) << bits) - 1;
  const unsigned __int128 top = static_cast<unsigned __int128>(1) << (bits - 1);
  v = low >= top ? static_cast<__int128>(low) - (static_cast<__int128>(1) << bits) : static_cast<__int128>(low);
  return static_cast<double>(v) == x ? Held::Exact : Held::Wrapped;
}

// InputError for an integer beyond GEMMul8's table (before the parallel conversion).
void require_in_table(const Setup& s, const double* x, size_t count, const char* name) {
  if (s.integer_bits() != 0) return;
  for (size_t v = 0; v < count; ++v)
    if (!(std::fabs(x[v]) < 0x1p126))
      throw InputError(std::string("gemmul8@2.0.14: ") + name + " holds an integer of " + std::to_string(std::ilogb(x[v]) + 1) +
                       " bits: GEMMul8 would read past its table of 2^j mod p (j <= 63); the model does not reproduce that");
}

int8_t residue_of(__int128 v, int64_t m) {
  __int128 r = v % m;
  if (r < -(m / 2)) r += m;
  if (r > (m - 1) / 2) r -= m;
  return static_cast<int8_t>(r);
}

// Residues of `lines` lines of k integers: element (line, kk) at x[line * line_step + kk * k_step],
// into out[(t * lines + line) * k + kk].
void fill(const Setup& s, const double* x, size_t lines, size_t line_step, size_t k_step, int8_t* out) {
  const int bits = s.integer_bits();
  const std::vector<int64_t>& moduli = s.base->moduli;
#pragma omp parallel for schedule(static)
  for (size_t line = 0; line < lines; ++line)
    for (size_t kk = 0; kk < s.k; ++kk) {
      __int128 v;
      hold(x[line * line_step + kk * k_step], bits, v);
      for (size_t t = 0; t < s.N; ++t) out[(t * lines + line) * s.k + kk] = residue_of(v, moduli[t]);
    }
}

// Each residue balanced and congruent to the integer as held; an integer that does not fit the
// width is a violation (GEMMul8's residue is then not that of A').
void check(const Setup& s, const double* x, const int8_t* res, size_t lines, size_t line_step, size_t k_step, const char* name,
           StageReport& report) {
  const int bits = s.integer_bits();
  parallel_check(lines * s.k, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t at = v0; at < v1; ++at) {
      const size_t line = at / s.k, kk = at % s.k;
      const double value = x[line * line_step + kk * k_step];
      __int128 held;
      if (hold(value, bits, held) != Held::Exact) {
        part.violate(std::string(name) + "[" + std::to_string(line) + "][" + std::to_string(kk) + "] = " + std::to_string(value) +
                     (bits ? " does not fit GEMMul8's int" + std::to_string(bits) + " conversion: its residues are those of the wrapped integer"
                           : std::string(" is beyond GEMMul8's table of 2^j mod p")));
        continue;
      }
      for (size_t t = 0; t < s.N; ++t) {
        const int64_t m = s.base->moduli[t];
        const int64_t got = res[(t * lines + line) * s.k + kk];
        if (got < -(m / 2) || got > (m - 1) / 2 || (held - got) % m != 0)
          part.violate(std::string(name) + "[" + std::to_string(line) + "][" + std::to_string(kk) + "] residue " + std::to_string(got) +
                       " mod " + std::to_string(m));
      }
    }
  });
}

}  // namespace

std::vector<ArrayRef> Residues::inputs() const { return {{ozaki2::Truncate::kName, "a"}, {ozaki2::Truncate::kName, "b"}}; }

std::vector<ArraySpec> Residues::outputs() const {
  const Setup& s = *s_;
  return {{"a", DType::I1, {{"N", s.N}, {"m", s.m}, {"k", s.k}}, {}}, {"b", DType::I1, {{"N", s.N}, {"n", s.n}, {"k", s.k}}, {}}};
}

void Residues::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const double *a = in.data<double>({ozaki2::Truncate::kName, "a"}), *b = in.data<double>({ozaki2::Truncate::kName, "b"});
  require_in_table(s, a, s.m * s.k, "A'");
  require_in_table(s, b, s.k * s.n, "B'");
  fill(s, a, s.m, s.k, 1, out.data<int8_t>(ref("a")));
  fill(s, b, s.n, 1, s.n, out.data<int8_t>(ref("b")));
}

// Contract (cheap): balanced, congruent to the integer as GEMMul8 holds it, and that integer is A'
// (resp. B') itself: no wraparound of the conversion.
void Residues::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  check(s, in.data<double>({ozaki2::Truncate::kName, "a"}), out.data<int8_t>(ref("a")), s.m, s.k, 1, "A'", report);
  check(s, in.data<double>({ozaki2::Truncate::kName, "b"}), out.data<int8_t>(ref("b")), s.n, 1, s.n, "B'", report);
}

}  // namespace ozref::schemes::gemmul8
