#include "schemes/ozaki2/moduli_list.hpp"

#include <numeric>

#include "common/error.hpp"

namespace ozref::schemes {

void require_moduli_list(const Ozaki2Options& o) {
  const std::vector<int64_t>& list = o.moduli_list;
  const std::string scheme = ozaki2_family(o.variant).scheme;
  if (o.variant != Ozaki2Variant::Int8) throw InputError(scheme + " takes no --moduli-list (its moduli need limbs of their own form: ozaki2-int8 takes any)");
  if (o.complex_product == ComplexProduct::Gaussian)
    throw InputError(scheme + ": --moduli-list with --complex-product gaussian (the Gaussian product takes its own moduli; use 3m)");
  if (o.moduli) throw InputError(scheme + ": --moduli and --moduli-list go separately (the list says how many)");
  if (list.size() < 2 || list.size() > kMaxModuliList)
    throw InputError(scheme + ": --moduli-list must hold 2.." + std::to_string(kMaxModuliList) + " moduli, got " + std::to_string(list.size()));
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] < 3 || list[i] > 256)
      throw InputError(scheme + ": --moduli-list: modulus " + std::to_string(list[i]) + " (position " + std::to_string(i) +
                       ") is outside 3..256 (its balanced residues must fit INT8)");
    for (size_t j = 0; j < i; ++j)
      if (const int64_t g = std::gcd(list[i], list[j]); g != 1)
        throw InputError(scheme + ": --moduli-list is not pairwise coprime: " + std::to_string(list[j]) + " and " + std::to_string(list[i]) +
                         " share the factor " + std::to_string(g));
  }
}

}  // namespace ozref::schemes
