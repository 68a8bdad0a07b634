// moduli.<list>: each moduli list is pairwise coprime; log2 of the product of each prefix.
// Exact integer arithmetic (GMP) on every pair.
#include <gmpxx.h>

#include <cmath>
#include <numeric>

#include "schemes/common/moduli.hpp"
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
  };
}

}  // namespace ozref::proofs
