// moduli.<list>: each moduli list is pairwise coprime; log2 of the product of each prefix.
// Exact integer arithmetic (GMP) on every pair.
#include <gmpxx.h>

#include <cmath>
#include <numeric>

#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/complex_product.hpp"
#include "theorem.hpp"

namespace ozref::proofs {
namespace {

Result coprime(const std::vector<int64_t>& list) {
  Result r;
  for (size_t i = 0; i < list.size(); ++i)
    for (size_t j = i + 1; j < list.size(); ++j)
      if (std::gcd(list[i], list[j]) != 1) {
        r.status = Status::Refuted;
        r.detail = "gcd(" + std::to_string(list[i]) + ", " + std::to_string(list[j]) + ") = " +
                   std::to_string(std::gcd(list[i], list[j]));
        return r;
      }
  mpz_class product = 1;
  nlohmann::json bits = nlohmann::json::array();
  for (int64_t m : list) {
    product *= static_cast<long>(m);
    bits.push_back(std::round(std::log2(product.get_d()) * 1000) / 1000);  // exact product, log rounded for display
  }
  r.status = Status::Proved;
  r.data = {{"moduli", list}, {"log2_prefix_products", bits}};
  return r;
}

// The Gaussian complex product of one modulus, decided on the code that runs it: iota^2 = -1 and
// m odd; then for every pair of balanced residues (re, im) of A and each basis value of B (1 and
// i), the complex stage's (Re, Im) from the planes' products is (re + i im) b mod m. The stage's
// map from (a, b) to (Re, Im) is bilinear mod m, so the basis values decide every b.
std::string gaussian_counterexample(int64_t m) {
  const schemes::GaussianModulus g(m);
  if (m % 2 == 0 || (g.iota * g.iota + 1) % m != 0) return "modulus " + std::to_string(m) + ": iota = " + std::to_string(g.iota);
  for (int64_t re = -(m / 2); re <= (m - 1) / 2; ++re)
    for (int64_t im = -(m / 2); im <= (m - 1) / 2; ++im)
      for (const auto& [br, bi] : {std::pair<int64_t, int64_t>{1, 0}, {0, 1}}) {
        const int64_t z = g.plane(re, im, 1) * g.plane(br, bi, 1), w = g.plane(re, im, -1) * g.plane(br, bi, -1);
        const int64_t want_re = schemes::balanced_residue(re * br - im * bi, m), want_im = schemes::balanced_residue(re * bi + im * br, m);
        if (g.real(z, w) != want_re || g.imag(z, w) != want_im)
          return "modulus " + std::to_string(m) + ": a = " + std::to_string(re) + " + " + std::to_string(im) + "i, b = " + std::to_string(br) +
                 " + " + std::to_string(bi) + "i";
      }
  return "";
}

Result gaussian_products() {
  Result r;
  nlohmann::json roots = nlohmann::json::object();
  for (int64_t m : schemes::gaussian_int8_moduli()) {
    if (const std::string bad = gaussian_counterexample(m); !bad.empty()) {
      r.status = Status::Refuted;
      r.detail = bad;
      return r;
    }
    roots[std::to_string(m)] = schemes::sqrt_minus_one(m);
  }
  r.status = Status::Proved;
  r.data = {{"iota", roots}};
  return r;
}

}  // namespace

std::vector<Theorem> moduli_theorems() {
  auto fp8_all = [] {
    std::vector<int64_t> all = schemes::fp8_square_moduli();
    const auto& k = schemes::fp8_karatsuba_moduli();
    all.insert(all.end(), k.begin(), k.end());
    return all;
  };
  return {
      {"moduli.int8", "the 20 INT8 moduli are pairwise coprime", "exact derivation (gcd of every pair)", false,
       [] { return coprime(schemes::int8_moduli()); }},
      {"moduli.fp8", "the 6 square and 14 Karatsuba FP8 moduli are pairwise coprime", "exact derivation (gcd of every pair)", false,
       [fp8_all] { return coprime(fp8_all()); }},
      {"moduli.fp4", "the 19 derived FP4 two-limb moduli are pairwise coprime", "exact derivation (gcd of every pair)", false,
       [] { return coprime(schemes::fp4_moduli()); }},
      {"moduli.gaussian", "the 22 derived Gaussian INT8 moduli are pairwise coprime", "exact derivation (gcd of every pair)", false,
       [] { return coprime(schemes::gaussian_int8_moduli()); }},
      {"moduli.gaussian_product", "modulo each Gaussian modulus, iota^2 = -1 and the planes re +- iota im give Re and Im of every product",
       "exhaustive (every balanced residue pair of A, B = 1 and i; bilinear)", false, gaussian_products},
  };
}

}  // namespace ozref::proofs
