// crt: the integer C' in (-P/2, P/2] from its N residues (exact or Garner: an exact integer of W
// 64-bit words, two's complement, least significant first; exact below 2^126 works on whole
// blocks of the residue planes in 128-bit arithmetic), or GEMMul8's double-double (hi, lo).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "schemes/ozaki2/stages.hpp"
#include "schemes/pipeline/parallel_check.hpp"
#include "schemes/common/crt_words.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

bool dd(const Setup& s) { return s.o.crt == CrtVariant::DoubleDouble; }

// The residues of element v of part o, one per modulus.
void gather(const Setup& s, const int16_t* residues, size_t o, size_t v, int32_t* out) {
  const size_t mn = s.m * s.n;
  for (size_t t = 0; t < s.N; ++t) out[t] = residues[(t * s.S + o) * mn + v];
}

// Elements [v0, v1) of part o: exact below 2^126 through the block form, else one by one.
void reconstruct_block(const Setup& s, const int16_t* residues, size_t o, size_t v0, size_t v1, Arrays& out, std::string_view stage) {
  const size_t mn = s.m * s.n, words = s.crt_words();
  if (dd(s)) {
    double *hi = out.data<double>({stage, "hi"}), *lo = out.data<double>({stage, "lo"});
    for (size_t v = v0; v < v1; ++v) {
      int32_t r[64];
      gather(s, residues, o, v, r);
      s.crt.double_double(r, hi[o * mn + v], lo[o * mn + v]);
    }
    return;
  }
  int64_t* c = out.data<int64_t>({stage, "c"});
  if (s.crt.fits_int128() && s.o.crt == CrtVariant::Exact) {
    const int16_t* planes[64];
    for (size_t t = 0; t < s.N; ++t) planes[t] = &residues[(t * s.S + o) * mn + v0];
    s.crt.exact_int128(planes, v1 - v0, reinterpret_cast<__int128*>(&c[(o * mn + v0) * 2]));
    return;
  }
  for (size_t v = v0; v < v1; ++v) {
    int32_t r[64];
    gather(s, residues, o, v, r);
    int64_t* w = &c[(o * mn + v) * words];
    if (s.crt.fits_int128()) {
      const __int128 x = s.crt.garner_int128(r);
      std::memcpy(w, &x, sizeof x);
    } else {
      words_from_mpz(s.o.crt == CrtVariant::Exact ? s.crt.exact(r) : s.crt.garner(r), w, words);
    }
  }
}

}  // namespace

std::vector<ArrayRef> CrtStage::inputs() const { return {reduced_products(*s_)}; }

std::vector<ArraySpec> CrtStage::outputs() const {
  const Setup& s = *s_;
  const std::vector<Axis> axes = {s.parts_axis(), {"m", s.m}, {"n", s.n}};
  if (dd(s)) return {{"hi", DType::F8, axes, {}}, {"lo", DType::F8, axes, {}}};
  std::vector<Axis> words = axes;
  words.push_back({"W", s.crt_words()});
  return {{"c", DType::I8, words, {}}};
}

StageKind CrtStage::kind() const { return dd(*s_) ? StageKind::Rounding : StageKind::Function; }

void CrtStage::compute(const Arrays& in, Arrays& out, size_t) const {
  const Setup& s = *s_;
  const int16_t* residues = in.data<int16_t>(inputs()[0]);
  constexpr size_t kBlock = 4096;
  const size_t mn = s.m * s.n, blocks = (mn + kBlock - 1) / kBlock;
#pragma omp parallel for schedule(static) collapse(2)
  for (size_t o = 0; o < s.S; ++o)
    for (size_t blk = 0; blk < blocks; ++blk)
      reconstruct_block(s, residues, o, blk * kBlock, std::min(mn, (blk + 1) * kBlock), out, name());
}

// Contract (cheap): exact and garner: congruent to every residue and inside (-P/2, P/2]; with the
// residues stage (congruent to A', B'), reduce (the residue of A' B') and truncate's bound this
// proves C' = A' B'. dd: within 2^-48 P of the exact integer.
void CrtStage::verify(const Arrays& in, const Arrays& out, size_t, Verify, StageReport& report) const {
  const Setup& s = *s_;
  const int16_t* residues = in.data<int16_t>(inputs()[0]);
  const size_t mn = s.m * s.n, words = s.crt_words();
  parallel_check(s.S * mn, report, [&](size_t v0, size_t v1, StageReport& part) {
    for (size_t at = v0; at < v1; ++at) {
      const size_t o = at / mn, v = at % mn;
      int32_t r[64];
      gather(s, residues, o, v, r);
      const BlockFrame& f = s.o.block;  // a distributed run's block: named as in the whole C
      const std::string where = "crt." + std::string(dd(s) ? "hi" : "c") + "[" + (s.S == 1 ? "" : o ? "im, " : "re, ") + "i " +
                                std::to_string(f.row(v / s.n)) + ", j " + std::to_string(f.col(v % s.n)) + "]";
      const ViolationKey key{0, 0, f.c_element(o, v / s.n, v % s.n, s.m, s.n)};
      if (dd(s)) {
        if (!std::isfinite(out.data<double>(ref("hi"))[at]) || !std::isfinite(out.data<double>(ref("lo"))[at])) {
          part.violate(where + " (dd) is not finite", key);
          continue;
        }
        const mpq_class got = mpq_class(out.data<double>(ref("hi"))[at]) + mpq_class(out.data<double>(ref("lo"))[at]);
        if (abs(got - mpq_class(s.crt.exact(r))) > mpq_class(s.crt.product()) / (mpz_class(1) << 48))
          part.violate(where + " (dd) is more than 2^-48 P from the exact integer", key);
        continue;
      }
      const mpz_class value = mpz_from_words(&out.data<int64_t>(ref("c"))[at * words], words);
      for (size_t t = 0; t < s.N; ++t)
        if (mpz_fdiv_ui(mpz_class(value - r[t]).get_mpz_t(), static_cast<unsigned long>(s.moduli[t])) != 0) {
          part.violate(where + ": C' = " + value.get_str() + " is not congruent to its residue " + std::to_string(r[t]) + " modulo " +
                           std::to_string(s.moduli[t]) + " (C' mod " + std::to_string(s.moduli[t]) + " = " +
                           std::to_string(mpz_fdiv_ui(value.get_mpz_t(), static_cast<unsigned long>(s.moduli[t]))) + ")", key);
          break;
        }
      if (2 * abs(value) > s.crt.product())
        part.violate(where + ": C' = " + value.get_str() + " is outside (-P/2, P/2], P = " + s.crt.product().get_str(), key);
    }
  });
}

}  // namespace ozref::schemes::ozaki2
