// The ozaki2-fp8 and ozaki2-fp4 moduli as the split, gemm and recombine twins take them, built on
// the host from the CPU's modular products (reference/schemes/ozaki2/modular_product.hpp): each
// modulus's LimbProduct, its GEMMs (which limbs they multiply), its first limb row and first GEMM
// row, and (fp4) the pairs its two-limb table takes.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "schemes/common/moduli.hpp"
#include "schemes/ozaki2/modular_product.hpp"
#include "stages/ozaki2/limbs.cuh"

namespace ozref::device::ozaki2 {

struct LimbProducts {
  std::vector<LimbProduct> products;
  std::vector<std::vector<schemes::ProductTerm>> terms;
  std::vector<size_t> limb_base{0}, term_base{0};
  size_t table_pairs = 0;  // fp4: the two-limb tables' length, one pair per class of each modulus
};

// The products of the first `moduli` moduli of the Fp8 or Fp4 variant.
inline LimbProducts limb_products(schemes::Ozaki2Variant variant, size_t moduli) {
  LimbProducts f;
  const std::vector<int64_t>& squares = schemes::fp8_square_moduli();
  for (const auto& mp : schemes::make_products(variant, moduli)) {
    LimbProduct p;
    p.modulus = mp->modulus();
    if (variant == schemes::Ozaki2Variant::Fp4) {
      p.table = static_cast<int32_t>(f.table_pairs);
      p.output_exponent = kE2M1OutputExponent;
      f.table_pairs += static_cast<size_t>(p.modulus);
    } else if (std::find(squares.begin(), squares.end(), p.modulus) != squares.end()) {
      p.root = static_cast<int32_t>(std::llround(std::sqrt(double(p.modulus))));
    }
    p.terms = static_cast<int>(mp->terms().size());
    for (int g = 0; g < p.terms; ++g) p.weight[g] = mp->terms()[g].weight;
    f.products.push_back(p);
    f.terms.push_back(mp->terms());
    f.limb_base.push_back(f.limb_base.back() + mp->limbs());
    f.term_base.push_back(f.term_base.back() + mp->terms().size());
  }
  return f;
}

}  // namespace ozref::device::ozaki2
