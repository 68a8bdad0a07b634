// RapidCheck generators of GEMM operands: the fuzzer's catalogue (docs/fuzz.md, "Generators"),
// with the generator, the shape and the seed drawn by RapidCheck, which then shrinks a failing
// case towards the smallest shape, the first generator of the list and seed 0. Header-only: a user
// of the installed package links rapidcheck themselves (find_package(rapidcheck)).
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ozref/fuzz.hpp"

namespace ozref::rapidcheck {

// One drawn case; `generator` names the parameter drawn ("exponent-span:60"), `name` and `seed`
// make it again: api::generate(name, m, n, k, seed).
struct Operands {
  api::Matrix<double> a, b;  // m x k, k x n, row-major
  std::string generator, name;
  uint64_t seed = 0;
};

// Operands from `generators` (empty: the whole catalogue), m, n and k in 1..max_*.
inline rc::Gen<Operands> operands(std::vector<std::string> generators = {}, size_t max_m = 16, size_t max_n = 16, size_t max_k = 64) {
  if (generators.empty()) generators = api::generator_names();
  return rc::gen::exec([generators, max_m, max_n, max_k] {
    const std::string name = *rc::gen::elementOf(generators);
    const size_t m = *rc::gen::inRange<size_t>(1, max_m + 1), n = *rc::gen::inRange<size_t>(1, max_n + 1),
                 k = *rc::gen::inRange<size_t>(1, max_k + 1);
    const uint64_t seed = *rc::gen::arbitrary<uint64_t>();
    api::GeneratedOperands x = api::generate(name, m, n, k, seed);
    return Operands{std::move(x.a), std::move(x.b), std::move(x.generator), name, seed};
  });
}

// What RapidCheck prints for a counterexample: the call that makes it again, not the matrices
// (found by argument-dependent lookup, so it lives beside Operands).
inline void showValue(const Operands& x, std::ostream& os) {
  os << x.generator << " " << x.a.rows << "x" << x.b.cols << "x" << x.a.cols << ": api::generate(\"" << x.name << "\", " << x.a.rows << ", "
     << x.b.cols << ", " << x.a.cols << ", " << x.seed << ")";
}

}  // namespace ozref::rapidcheck
