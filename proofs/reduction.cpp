// reduction.barrett32.<modulus>: the reduction of the reduce stage (schemes/common/residue.cpp)
// returns the balanced residue of every int32 input, for every modulus of the INT8 list. Decided by
// Z3 over the whole 32-bit domain: the formula below restates BarrettReducer::reduce in linear
// integer arithmetic and asks for an input where the result leaves the balanced range (it is
// congruent by construction: x minus a multiple of m); `proved` means Z3 found none (unsat).
// reduction.rare_limbs.<modulus>: rare's Barrett step after the 18-bit limb sum (mu = floor(2^31/p),
// one conditional subtract) returns v mod p for every v of its domain [0, limb_domain(p)).
// reduction.rare_biased.<modulus>: rare's reduction of INT32 GEMM outputs |y| <= K (p/2)^2 with
// K = 131071: y + bias stays in uint32, and its Barrett remainder lies in [0, 3p), so the
// subtract loop ends after at most two steps with the residue.
#include <z3++.h>

#include <functional>

#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "theorem.hpp"

namespace ozref::proofs {
namespace {

Result barrett(int64_t m) {
  const schemes::BarrettReducer red(m);
  z3::context ctx;
  // Linear integer arithmetic: x ranges over the int32 values, q = floor(x mu / 2^32) is stated by
  // its defining inequalities (the C++ computes it with an arithmetic shift of the exact int64
  // product; |x mu| < 2^31 * 2^25 never wraps), then the corrections as written.
  const z3::expr x = ctx.int_const("x"), q = ctx.int_const("q");
  auto c = [&](int64_t v) { return ctx.int_val(v); };
  const z3::expr pow32 = c(int64_t{1} << 32);
  const z3::expr domain = x >= c(INT32_MIN) && x <= c(INT32_MAX) && q * pow32 <= x * c(int64_t(red.mu)) &&
                          x * c(int64_t(red.mu)) < (q + 1) * pow32;
  const z3::expr r0 = x - q * c(m);
  const z3::expr r1 = z3::ite(r0 < c(0), r0 + c(m), r0);
  const z3::expr r2 = z3::ite(r1 >= c(m), r1 - c(m), r1);
  const z3::expr b = z3::ite(r2 >= c((m + 1) / 2), r2 - c(m), r2);
  // b = x - q' m for the integer q' that the corrections amount to, so congruence holds by
  // construction; what needs proving is the range.
  const z3::expr in_range = b >= c(-(m / 2)) && b <= c((m + 1) / 2 - 1);
  z3::solver s(ctx);
  s.add(domain && !in_range);
  Result r;
  switch (s.check()) {
    case z3::unsat:
      r.status = Status::Proved;
      break;
    case z3::sat: {
      const int64_t bad = s.get_model().eval(x).get_numeral_int64();
      const int32_t input = static_cast<int32_t>(bad);
      r.status = Status::Refuted;
      r.detail = "input " + std::to_string(input) + " reduces to " + std::to_string(red.reduce(input)) + " mod " + std::to_string(m);
      break;
    }
    default:
      r.status = Status::Failed;
      r.detail = "z3 returned unknown: " + s.reason_unknown();
  }
  // The C++ routine itself on the extreme inputs, against the same formula's claim.
  for (int64_t v : {int64_t(INT32_MIN), int64_t(INT32_MIN) + 1, int64_t(-1), int64_t(0), int64_t(1), int64_t(INT32_MAX)}) {
    const int64_t got = red.reduce(static_cast<int32_t>(v));
    if (got < -(m / 2) || got > (m + 1) / 2 - 1 || (v - got) % m != 0) {
      r.status = Status::Refuted;
      r.detail = "BarrettReducer::reduce(" + std::to_string(v) + ") = " + std::to_string(got) + " mod " + std::to_string(m);
    }
  }
  r.data = {{"modulus", m}, {"mu", red.mu}, {"domain", "all int32"}};
  return r;
}

// Decides `domain && !claim` with Z3; `proved` when unsat. `input` names the counterexample.
Result decide(z3::solver& s, const z3::expr& input, const std::function<std::string(int64_t)>& describe) {
  Result r;
  switch (s.check()) {
    case z3::unsat: r.status = Status::Proved; break;
    case z3::sat:
      r.status = Status::Refuted;
      r.detail = describe(s.get_model().eval(input).get_numeral_int64());
      break;
    default:
      r.status = Status::Failed;
      r.detail = "z3 returned unknown: " + s.reason_unknown();
  }
  return r;
}

Result rare_limbs(int64_t m) {
  z3::context ctx;
  auto c = [&](int64_t v) { return ctx.int_val(v); };
  const int64_t mu = (int64_t{1} << 31) / m, bound = schemes::rare::limb_domain(m);
  const z3::expr v = ctx.int_const("v"), q = ctx.int_const("q"), pow31 = c(int64_t{1} << 31);
  const z3::expr r0 = v - q * c(m), r1 = z3::ite(r0 >= c(m), r0 - c(m), r0);
  z3::solver s(ctx);
  s.add(v >= c(0) && v < c(bound) && q * pow31 <= v * c(mu) && v * c(mu) < (q + 1) * pow31 && !(r1 >= c(0) && r1 < c(m)));
  Result r = decide(s, v, [m](int64_t bad) {
    return "v = " + std::to_string(bad) + " gives " + std::to_string(schemes::rare::limb_barrett(uint32_t(bad), m)) + " mod " + std::to_string(m);
  });
  for (int64_t x : {int64_t(0), int64_t(1), bound - 1})
    if (schemes::rare::limb_barrett(uint32_t(x), m) != uint32_t(x % m)) {
      r.status = Status::Refuted;
      r.detail = "limb_barrett(" + std::to_string(x) + ") is not " + std::to_string(x % m);
    }
  r.data = {{"modulus", m}, {"mu", mu}, {"domain", {0, bound - 1}}};
  return r;
}

// fp64-emu's barrett_bal32 on |y| <= bound with `bias` (a multiple of m): y + bias stays in uint32
// and the Barrett remainder lies in [0, 3m).
Result biased_barrett(int64_t m, int64_t bound, int64_t bias) {
  z3::context ctx;
  auto c = [&](int64_t v) { return ctx.int_val(v); };
  const int64_t mu = (int64_t{1} << 31) / m;
  const z3::expr y = ctx.int_const("y"), q = ctx.int_const("q"), pow31 = c(int64_t{1} << 31);
  const z3::expr xu = y + c(bias), r0 = xu - q * c(m);
  z3::solver s(ctx);
  s.add(y >= c(-bound) && y <= c(bound) && q * pow31 <= xu * c(mu) && xu * c(mu) < (q + 1) * pow31 &&
        !(xu >= c(0) && xu < c(int64_t{1} << 32) && r0 >= c(0) && r0 < c(3 * m)));
  Result r = decide(s, y, [m](int64_t bad) { return "y = " + std::to_string(bad) + " mod " + std::to_string(m) + " leaves the claim"; });
  for (int64_t x : {-bound, int64_t(-1), int64_t(0), int64_t(1), std::min<int64_t>(bound, INT32_MAX)})
    if (schemes::rare::biased_barrett(int32_t(x), m, uint32_t(bias)) != schemes::balanced_residue(x, m)) {
      r.status = Status::Refuted;
      r.detail = "biased_barrett(" + std::to_string(x) + ") mod " + std::to_string(m);
    }
  r.data = {{"modulus", m}, {"mu", mu}, {"bias", bias}, {"domain", {-bound, bound}}};
  return r;
}

Result rare_biased(int64_t m) {
  constexpr int64_t kDepth = 131071;
  Result r = biased_barrett(m, kDepth * (m / 2) * (m / 2), schemes::rare::reduction_bias(m, kDepth));
  r.data["k"] = kDepth;
  return r;
}

// fp64-emu's Garner digit step (reconstruct_kernel): y = (r_t - acc) * minv with |y| < 2^27 and
// bias p << 21 (not modelled by ozref's rare, which reconstructs exactly; audited here).
Result rare_garner(int64_t m) { return biased_barrett(m, (int64_t{1} << 27) - 1, m << 21); }

}  // namespace

std::vector<Theorem> reduction_theorems() {
  std::vector<Theorem> out;
  for (int64_t m : schemes::int8_moduli())
    out.push_back({"reduction.barrett32." + std::to_string(m),
                   "the reduce stage's Barrett reduction gives the balanced residue mod " + std::to_string(m) + " of every int32",
                   "z3 (linear integer arithmetic) over the int32 domain", false, [m] { return barrett(m); }});
  for (int64_t m : schemes::int8_moduli()) {
    out.push_back({"reduction.rare_limbs." + std::to_string(m),
                   "rare's limb-sum Barrett step (mu = floor(2^31/p), one subtract) gives v mod " + std::to_string(m) + " on its whole domain",
                   "z3 (linear integer arithmetic) over [0, limb_domain)", false, [m] { return rare_limbs(m); }});
    out.push_back({"reduction.rare_garner." + std::to_string(m),
                   "fp64-emu's Garner digit reduction (|y| < 2^27, bias p 2^21) stays in uint32 and needs at most two subtracts, mod " + std::to_string(m),
                   "z3 (linear integer arithmetic) over the digit range", false, [m] { return rare_garner(m); }});
    out.push_back({"reduction.rare_biased." + std::to_string(m),
                   "rare's biased reduction of INT32 outputs |y| <= 131071 (p/2)^2 stays in uint32 and needs at most two subtracts, mod " + std::to_string(m),
                   "z3 (linear integer arithmetic) over the output range", false, [m] { return rare_biased(m); }});
  }
  return out;
}

}  // namespace ozref::proofs
