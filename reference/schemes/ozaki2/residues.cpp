// residues: the balanced residues of A' and B' modulo every modulus, A's by rows (N x P x m x k)
// and B's by columns (N x P x n x k, the layout of the GEMMs' B operand). A complex run's planes
// per modulus are formed in residue arithmetic, as a kernel forms them: 3M's re, im and re + im,
// or the Gaussian re + iota im and re - iota im (complex_product.hpp).
// rare extracts them with fp64-emu's three-limb arithmetic.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

// A' mod m for a finite integer held in a double, apart from the extraction under test: int64
// remainders below 2^63 (where the bound keeps the scaled integers), fmod above.
int64_t remainder_of(double v, int64_t m) { return std::fabs(v) < 0x1p63 ? int64_t(v) % m : int64_t(std::fmod(v, double(m))); }

// rare's residue: fp64-emu's three-limb extraction where t is in its domain |t| <= 2^bits_eff
// (`domain`); a scaling that breaks the bound (truncate reports it) can leave larger integers,
// which take their exact residue rather than the extraction's undefined conversion.
int32_t rare_residue(double t, int bits_eff, double domain, int64_t m) {
  if (std::fabs(t) <= domain) return rare::limb_residue(t, bits_eff, m);
  return balanced_residue_of_integer(t, m);
}

// The parts' residues re, im into the planes re + iota im, re - iota im, in place.
void gaussian_planes(const GaussianModulus& g, size_t len, int16_t* re, int16_t* im) {
  for (size_t v = 0; v < len; ++v) {
    const int64_t z = g.plane(re[v], im[v], 1), w = g.plane(re[v], im[v], -1);
    re[v] = int16_t(z), im[v] = int16_t(w);
  }
}

// The integer a plane of one element is congruent to, from its parts' remainders: 3M's re, im
// and re + im; the Gaussian re + iota im and re - iota im.
int64_t plane_remainder(const Setup& s, size_t t, size_t plane, int64_t re, int64_t im) {
  if (s.P == 1) return re;
  if (!s.gaussian.empty()) return re + (plane == 0 ? 1 : -1) * s.gaussian[t].iota * im;
  return plane == 0 ? re : plane == 1 ? im : re + im;
}

// The residues of one side: `lines` lines of k integers per part (A's rows; B's columns, gathered
// kGroup at a time from its rows, one cache line per row), in pieces of kLen that stay in L1
// while every modulus reads them, into out[((t * P + plane) * lines + line) * k + kk].
template <typename T>
void fill(const Setup& s, const double* x, bool columns, size_t lines, int bits_eff, T* out) {
  constexpr size_t kLen = 2048, kGroup = 8;
  const size_t N = s.N, P = s.P, k = s.k, count = lines * k, groups = (lines + kGroup - 1) / kGroup, pieces = (k + kLen - 1) / kLen;
#pragma omp parallel for schedule(static) collapse(2)
  for (size_t group = 0; group < groups; ++group)
    for (size_t piece = 0; piece < pieces; ++piece) {
      const size_t l0 = group * kGroup, l1 = std::min(lines, l0 + kGroup), k0 = piece * kLen, len = std::min(kLen, k - k0);
      thread_local std::vector<double> tile;      // (part, line, element)
      thread_local std::vector<int16_t> residues;  // (part, modulus, element) of one line
      tile.resize(2 * kGroup * kLen), residues.resize(3 * N * kLen);
      if (columns)
        for (size_t p = 0; p < s.S; ++p)
          for (size_t kk = 0; kk < len; ++kk)
            for (size_t l = l0; l < l1; ++l) tile[(p * kGroup + l - l0) * kLen + kk] = x[p * count + (k0 + kk) * lines + l];
      auto plane = [&](size_t p, size_t t) { return &residues[(p * N + t) * len]; };
      auto line = [&](size_t p, size_t l) { return columns ? &tile[(p * kGroup + l - l0) * kLen] : x + p * count + l * k + k0; };
      for (size_t l = l0; l < l1; ++l) {
        if (!s.rare && P == 1) {  // straight into place, modulus t at out[t * count + l * k + k0]
          balanced_residues(line(0, l), len, s.moduli, &out[l * k + k0], count);
          continue;
        }
        for (size_t p = 0; p < s.S; ++p) {
          const double* in = line(p, l);
          if (!s.rare) {
            balanced_residues(in, len, s.moduli, plane(p, 0), len);
            continue;
          }
          const double domain = std::ldexp(1.0, bits_eff);
          for (size_t t = 0; t < N; ++t)  // fp64-emu's three-limb extraction
            for (size_t v = 0; v < len; ++v) plane(p, t)[v] = int16_t(rare_residue(in[v], bits_eff, domain, s.moduli[t]));
        }
        for (size_t t = 0; t < N; ++t) {
          if (P == 3)
            for (size_t v = 0; v < len; ++v) plane(2, t)[v] = int16_t(balanced_residue(int64_t(plane(0, t)[v]) + plane(1, t)[v], s.moduli[t]));
          if (!s.gaussian.empty()) gaussian_planes(s.gaussian[t], len, plane(0, t), plane(1, t));
          for (size_t pl = 0; pl < P; ++pl) std::copy(plane(pl, t), plane(pl, t) + len, &out[(t * P + pl) * count + l * k + k0]);
        }
      }
    }
}

// An integer held in a double, in decimal ("1234567", or "%.17g" past 2^63).
std::string integer_text(double v) {
  if (std::fabs(v) < 0x1p63) return std::to_string(static_cast<int64_t>(v));
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// One wrong residue, named by the array's own axes, with the expected value and the property that
// failed: "residues.a[modulus 251, i 3, k 17]: found 130, expected 5, the balanced residue of
// A'[3, 17] = 1260 modulo 251 (in [-125, 125]): outside the balanced range".
std::string residue_violation(const Setup& s, bool columns, size_t t, size_t pl, size_t line, size_t kk, double x, bool finite, int64_t rem,
                              int64_t got) {
  const int64_t m = s.moduli[t], low = -(m / 2), high = (m - 1) / 2;
  const std::string plane = s.P == 1 ? "" : std::string(", plane ") + s.plane_name(pl);
  const std::string at = std::string("residues.") + (columns ? "b" : "a") + "[modulus " + std::to_string(m) + plane + (columns ? ", j " : ", i ") +
                         std::to_string(line) + ", k " + std::to_string(kk) + "]: found " + std::to_string(got);
  const std::string integer = columns ? "B'[" + std::to_string(kk) + ", " + std::to_string(line) + "]" : "A'[" + std::to_string(line) + ", " + std::to_string(kk) + "]";
  if (!finite) return at + ", but " + integer + " is not finite: it has no residue";
  const int64_t expected = balanced_residue(rem, m);
  const std::string range = "[" + std::to_string(low) + ", " + std::to_string(high) + "]";
  const std::string value = s.S == 1 ? " = " + integer_text(x) : " (plane " + std::string(s.plane_name(pl)) + ")";  // a complex plane: no one double
  return at + ", expected " + std::to_string(expected) + ", the balanced residue of " + integer + value + " modulo " + std::to_string(m) +
         " (in " + range + "): " + (got < low || got > high ? "outside the balanced range" : "not congruent to it");
}

template <typename T>
void check(const Setup& s, const double* x, const T* res, size_t lines, bool columns, StageReport& report) {
  const size_t count = lines * s.k, per_modulus = s.P * count;
  parallel_check(s.N * per_modulus, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t at = v0; at < v1; ++at) {
      const size_t t = at / per_modulus, pl = at / count % s.P, v = at % count;
      const int64_t m = s.moduli[t];
      const size_t line = v / s.k, kk = v % s.k, in = columns ? kk * lines + line : v;  // row-major in the input
      const int64_t got = res[at];
      const bool finite = std::isfinite(x[in]) && (s.S == 1 || std::isfinite(x[count + in]));  // a trace's A' may not be
      const int64_t rem = finite ? plane_remainder(s, t, pl, remainder_of(x[in], m), s.S == 2 ? remainder_of(x[count + in], m) : 0) : 0;
      if (finite && got >= -(m / 2) && got <= (m - 1) / 2 && (rem - got) % m == 0) continue;
      const BlockFrame& f = s.o.block;  // a distributed run's block: named as in the whole A' and B'
      const size_t whole = columns ? f.col(line) : f.row(line);
      part.violate(residue_violation(s, columns, t, pl, whole, kk, x[in], finite, rem, got),
                   {0, columns ? 1u : 0u, f.line_element(t * s.P + pl, columns, line, kk, s.k, lines)});
    }
  });
}

}  // namespace

std::vector<ArrayRef> Residues::inputs() const {
  const std::string_view from = integers_stage(*s_);
  std::vector<ArrayRef> r = {{from, "a"}, {from, "b"}};
  if (s_->rare) r.push_back({Scale::kName, "bits_eff"});
  return r;
}

std::vector<ArraySpec> Residues::outputs() const {
  const Setup& s = *s_;
  return {{"a", s.residue_dtype(), {s.moduli_axis(), s.planes_axis(), {"m", s.m}, {"k", s.k}}, {}},
          {"b", s.residue_dtype(), {s.moduli_axis(), s.planes_axis(), {"n", s.n}, {"k", s.k}}, {}}};
}

void Residues::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const std::string_view from = integers_stage(s);
  const int bits_eff = s.rare ? in.data<int32_t>({Scale::kName, "bits_eff"})[0] : 0;
  const double *a = in.data<double>({from, "a"}), *b = in.data<double>({from, "b"});
  if (s.narrow) {
    fill(s, a, false, s.m, bits_eff, out.data<int8_t>(ref("a")));
    fill(s, b, true, s.n, bits_eff, out.data<int8_t>(ref("b")));
  } else {
    fill(s, a, false, s.m, bits_eff, out.data<int16_t>(ref("a")));
    fill(s, b, true, s.n, bits_eff, out.data<int16_t>(ref("b")));
  }
}

// Contract (cheap): every plane in the balanced range and congruent to its integer (re + im: to
// the sum of the two integers).
void Residues::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const std::string_view from = integers_stage(s);
  const double *a = in.data<double>({from, "a"}), *b = in.data<double>({from, "b"});
  const bool a_here = s.o.block.checks_a, b_here = s.o.block.checks_b;  // one rank per row of A, per column of B
  if (s.narrow) {
    if (a_here) check(s, a, out.data<int8_t>(ref("a")), s.m, false, report);
    if (b_here) check(s, b, out.data<int8_t>(ref("b")), s.n, true, report);
  } else {
    if (a_here) check(s, a, out.data<int16_t>(ref("a")), s.m, false, report);
    if (b_here) check(s, b, out.data<int16_t>(ref("b")), s.n, true, report);
  }
}

}  // namespace ozref::schemes::ozaki2
