// The ozaki2-fp8 moduli as the split, gemm and recombine twins take them, built on the host from
// the CPU's modular products (reference/schemes/ozaki2/modular_product.hpp): each modulus's
// LimbProduct, its GEMMs (which limbs they multiply), and its first limb row and first GEMM row.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "schemes/common/moduli.hpp"
#include "schemes/ozaki2/modular_product.hpp"
#include "stages/ozaki2/limbs.cuh"

namespace ozref::device::ozaki2 {

struct Fp8Products {
  std::vector<LimbProduct> products;
  std::vector<std::vector<schemes::ProductTerm>> terms;
  std::vector<size_t> limb_base{0}, term_base{0};
};

inline Fp8Products fp8_products(size_t moduli) {
  Fp8Products f;
  const std::vector<int64_t>& squares = schemes::fp8_square_moduli();
  for (const auto& mp : schemes::make_products(schemes::Ozaki2Variant::Fp8, moduli)) {
    LimbProduct p;
    p.modulus = mp->modulus();
    if (std::find(squares.begin(), squares.end(), p.modulus) != squares.end()) p.root = static_cast<int32_t>(std::llround(std::sqrt(double(p.modulus))));
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
