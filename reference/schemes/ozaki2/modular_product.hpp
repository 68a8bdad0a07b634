// How an Ozaki-II variant multiplies residue matrices modulo one modulus m with low-precision
// GEMMs: each balanced residue is split into limbs (small integers its format holds exactly), the
// GEMMs multiply limb matrices of A and B, and a weighted sum of their outputs, reduced mod m, is
// the residue of the product.
//   int8            one limb (the residue), one INT8 GEMM, the kernel's Barrett reduction
//   rare            the same with fp64-emu's biased Barrett reduction (rare.hpp)
//   fp8 square      m = s^2: r = s x + y, x = rint(r / s); GEMMs x y', y x', y y'; s (C0 + C1) + C2
//                   (the x x' term is s^2 x x' = 0 mod m)
//   fp8 karatsuba   r = 16 h + l, h = sign(r) ceil(|r| / 16), z = h + l; GEMMs h h', l l', z z';
//                   256 C0 + 16 (C2 - C0 - C1) + C1
//   fp4 two-limb    r = c0 + 13 c1 (mod m), c0, c1 in S; GEMMs c0 c0', c0 c1', c1 c0', c1 c1' (the
//                   last dropped when 169 = 0 mod m); C00 + 13 (C01 + C10) + 169 C11
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "schemes/common/lowp_gemm.hpp"
#include "schemes/ozaki2/complex_product.hpp"

namespace ozref::schemes {

struct ProductTerm {
  size_t a_limb = 0, b_limb = 0;
  int64_t weight = 1;
};

class ModularProduct {
 public:
  virtual ~ModularProduct() = default;
  virtual std::string name() const = 0;
  int64_t modulus() const { return m_; }
  size_t limbs() const { return limbs_; }
  const std::vector<ProductTerm>& terms() const { return terms_; }
  // The limbs of a balanced residue r, `limbs()` values.
  virtual void split(int32_t r, int8_t* limbs) const = 0;
  // Empty when the limbs of r are what split() promises (they represent r, within their range);
  // otherwise what is wrong.
  virtual std::string check_split(int32_t r, const int8_t* limbs) const = 0;
  // The balanced residue of the product from its terms' integer GEMM outputs.
  virtual int32_t combine(const int64_t* outputs) const;
  // combine() for `count` elements from the raw outputs of `g` (outputs[term][element]), into
  // out; a non-integer output gives an unspecified residue (the stage's check reports it).
  virtual void combine_all(const LowpGemm& g, const uint32_t* const* outputs, size_t count, int16_t* out) const;

 protected:
  ModularProduct(int64_t m, size_t limbs, std::vector<ProductTerm> terms) : m_(m), limbs_(limbs), terms_(std::move(terms)) {}

 private:
  int64_t m_;
  size_t limbs_;
  std::vector<ProductTerm> terms_;
};

enum class Ozaki2Variant { Int8, Fp8, Fp4, Rare };

struct Ozaki2Family {
  std::string scheme;          // "ozaki2-int8", ...
  LowpFormat format;
  std::vector<int64_t> moduli;  // the whole list, used as prefixes
  size_t default_count;  // rare: by K (rare::default_moduli)
};
// The variant's family; a Gaussian complex product (int8 only) takes the Gaussian moduli.
const Ozaki2Family& ozaki2_family(Ozaki2Variant v, ComplexProduct p = ComplexProduct::ThreeM);

// The products of the first `count` moduli of a variant's list (k: the GEMMs' depth, which sets
// rare's reduction bias).
std::vector<std::unique_ptr<ModularProduct>> make_products(Ozaki2Variant v, size_t count, size_t k = 0, ComplexProduct p = ComplexProduct::ThreeM);
// The products of the given moduli (a kernel's own list, --moduli-list), each as the variant
// multiplies modulo it (fp8: a square modulus of the family's as a square, else Karatsuba).
std::vector<std::unique_ptr<ModularProduct>> make_products_of(Ozaki2Variant v, const std::vector<int64_t>& moduli, size_t k = 0);

}  // namespace ozref::schemes
