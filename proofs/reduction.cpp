// reduction.barrett32.<modulus>: the reduction of the reduce stage (schemes/common/residue.cpp)
// returns the balanced residue of every int32 input, for every modulus of the INT8 list. Decided by
// Z3 over the whole 32-bit domain: the formula below restates BarrettReducer::reduce in linear
// integer arithmetic and asks for an input where the result leaves the balanced range (it is
// congruent by construction: x minus a multiple of m); `proved` means Z3 found none (unsat).
#include <z3++.h>

#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
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

}  // namespace

std::vector<Theorem> reduction_theorems() {
  std::vector<Theorem> out;
  for (int64_t m : schemes::int8_moduli())
    out.push_back({"reduction.barrett32." + std::to_string(m),
                   "the reduce stage's Barrett reduction gives the balanced residue mod " + std::to_string(m) + " of every int32",
                   "z3 (linear integer arithmetic) over the int32 domain", false, [m] { return barrett(m); }});
  return out;
}

}  // namespace ozref::proofs
