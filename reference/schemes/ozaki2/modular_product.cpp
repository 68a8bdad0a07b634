#include "schemes/ozaki2/modular_product.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "schemes/common/base13.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/rare.hpp"

namespace ozref::schemes {
namespace {

std::string show(const int8_t* limbs, size_t n) {
  std::string s = "(";
  for (size_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(limbs[i]);
  return s + ")";
}

// The INT8 variants: the residue itself is the one limb.
class SingleLimbProduct : public ModularProduct {
 public:
  void split(int32_t r, int8_t* limbs) const override { limbs[0] = static_cast<int8_t>(r); }
  std::string check_split(int32_t r, const int8_t* limbs) const override {
    return limbs[0] == r ? "" : "limb " + std::to_string(limbs[0]) + " is not the residue " + std::to_string(r);
  }

 protected:
  explicit SingleLimbProduct(int64_t m) : ModularProduct(m, 1, {{0, 0, 1}}) {}
};

class Int8Product final : public SingleLimbProduct {
 public:
  explicit Int8Product(int64_t m) : SingleLimbProduct(m), barrett_(m) {}
  std::string name() const override { return "int8 " + std::to_string(modulus()); }
  int32_t combine(const int64_t* outputs) const override { return barrett_.reduce(static_cast<int32_t>(outputs[0])); }
  void combine_all(const LowpGemm&, const uint32_t* const* outputs, size_t count, int16_t* out) const override {
    barrett_.reduce_all(outputs[0], count, out);
  }

 private:
  BarrettReducer barrett_;
};

class RareProduct final : public SingleLimbProduct {
 public:
  RareProduct(int64_t m, size_t k) : SingleLimbProduct(m), bias_(rare::reduction_bias(m, k)) {}
  std::string name() const override { return "rare " + std::to_string(modulus()); }
  int32_t combine(const int64_t* outputs) const override {
    return rare::biased_barrett(static_cast<int32_t>(outputs[0]), modulus(), bias_);
  }

 private:
  uint32_t bias_;
};

class Fp8SquareProduct final : public ModularProduct {
 public:
  explicit Fp8SquareProduct(int64_t m)
      : ModularProduct(m, 2, {{0, 1, root(m)}, {1, 0, root(m)}, {1, 1, 1}}), s_(root(m)) {}
  std::string name() const override { return "fp8 square " + std::to_string(modulus()) + " = " + std::to_string(s_) + "^2"; }
  void split(int32_t r, int8_t* limbs) const override {
    const int64_t x = std::llround(std::nearbyint(double(r) / double(s_)));  // rint: ties to even
    limbs[0] = static_cast<int8_t>(x);
    limbs[1] = static_cast<int8_t>(r - s_ * x);
  }
  std::string check_split(int32_t r, const int8_t* l) const override {
    if (s_ * l[0] + l[1] != r) return "limbs " + show(l, 2) + " do not give " + std::to_string(r) + " = s x + y";
    if (std::abs(l[0]) > 16 || std::abs(l[1]) > 16) return "limbs " + show(l, 2) + " of " + std::to_string(r) + " exceed 16";
    return "";
  }

 private:
  static int64_t root(int64_t m) { return std::llround(std::sqrt(double(m))); }
  int64_t s_;
};

class Fp8KaratsubaProduct final : public ModularProduct {
 public:
  explicit Fp8KaratsubaProduct(int64_t m) : ModularProduct(m, 3, {{0, 0, 240}, {1, 1, -15}, {2, 2, 16}}) {}
  std::string name() const override { return "fp8 karatsuba " + std::to_string(modulus()); }
  void split(int32_t r, int8_t* limbs) const override {
    const int64_t h = r >= 0 ? (r + 15) / 16 : -((-r + 15) / 16);
    limbs[0] = static_cast<int8_t>(h);
    limbs[1] = static_cast<int8_t>(r - 16 * h);
    limbs[2] = static_cast<int8_t>(limbs[0] + limbs[1]);
  }
  std::string check_split(int32_t r, const int8_t* l) const override {
    if (16 * l[0] + l[1] != r || l[2] != l[0] + l[1])
      return "limbs " + show(l, 3) + " are not (h, l, h + l) with 16 h + l = " + std::to_string(r);
    for (int i = 0; i < 3; ++i)
      if (std::abs(l[i]) > 16) return "limbs " + show(l, 3) + " of " + std::to_string(r) + " exceed 16";
    return "";
  }
};

class Fp4TwoLimbProduct final : public ModularProduct {
 public:
  explicit Fp4TwoLimbProduct(int64_t m) : ModularProduct(m, 2, terms_for(m)), table_(m) {}
  std::string name() const override { return "fp4 two-limb " + std::to_string(modulus()); }
  void split(int32_t r, int8_t* limbs) const override {
    const auto [c0, c1] = table_.limbs(r);
    limbs[0] = c0;
    limbs[1] = c1;
  }
  std::string check_split(int32_t r, const int8_t* l) const override {
    if (!in_digit_set(l[0]) || !in_digit_set(l[1])) return "limbs " + show(l, 2) + " of " + std::to_string(r) + " are not digits of S";
    if ((int64_t(l[0]) + 13 * l[1] - r) % modulus() != 0)
      return "limbs " + show(l, 2) + ": c0 + 13 c1 is not " + std::to_string(r) + " mod " + std::to_string(modulus());
    return "";
  }

 private:
  static std::vector<ProductTerm> terms_for(int64_t m) {
    std::vector<ProductTerm> t = {{0, 0, 1}, {0, 1, 13}, {1, 0, 13}};
    if (169 % m != 0) t.push_back({1, 1, 169});
    return t;
  }
  TwoLimbTable table_;
};

}  // namespace

int32_t ModularProduct::combine(const int64_t* outputs) const {
  int64_t sum = 0;
  for (size_t g = 0; g < terms_.size(); ++g) sum += terms_[g].weight * (outputs[g] % m_);  // no overflow: |weight| < 2^11
  return balanced_residue(sum, m_);
}

void ModularProduct::combine_all(const LowpGemm& g, const uint32_t* const* outputs, size_t count, int16_t* out) const {
  int64_t values[4];
  for (size_t v = 0; v < count; ++v) {
    for (size_t t = 0; t < terms_.size(); ++t) values[t] = g.integer_output(outputs[t][v]);
    out[v] = static_cast<int16_t>(combine(values));
  }
}

const Ozaki2Family& ozaki2_family(Ozaki2Variant v, ComplexProduct p) {
  static const Ozaki2Family int8{"ozaki2-int8", LowpFormat::Int8, int8_moduli(), 16};
  static const Ozaki2Family gaussian{"ozaki2-int8", LowpFormat::Int8, gaussian_int8_moduli(), 16};
  if (v == Ozaki2Variant::Int8 && p == ComplexProduct::Gaussian) return gaussian;
  static const Ozaki2Family fp8 = [] {
    std::vector<int64_t> m = fp8_square_moduli();
    m.insert(m.end(), fp8_karatsuba_moduli().begin(), fp8_karatsuba_moduli().end());
    return Ozaki2Family{"ozaki2-fp8", LowpFormat::E4M3, m, 14};
  }();
  static const Ozaki2Family fp4{"ozaki2-fp4", LowpFormat::E2M1, fp4_moduli(19), 19};
  static const Ozaki2Family rare{"rare", LowpFormat::Int8, int8_moduli(), 14};
  switch (v) {
    case Ozaki2Variant::Int8: return int8;
    case Ozaki2Variant::Fp8: return fp8;
    case Ozaki2Variant::Fp4: return fp4;
    case Ozaki2Variant::Rare: return rare;
  }
  return int8;
}

std::vector<std::unique_ptr<ModularProduct>> make_products(Ozaki2Variant v, size_t count, size_t k, ComplexProduct p) {
  const Ozaki2Family& f = ozaki2_family(v, p);
  return make_products_of(v, std::vector<int64_t>(f.moduli.begin(), f.moduli.begin() + std::min(count, f.moduli.size())), k);
}

std::vector<std::unique_ptr<ModularProduct>> make_products_of(Ozaki2Variant v, const std::vector<int64_t>& moduli, size_t k) {
  const std::vector<int64_t>& squares = fp8_square_moduli();
  std::vector<std::unique_ptr<ModularProduct>> out;
  for (const int64_t m : moduli) {
    if (v == Ozaki2Variant::Int8) out.push_back(std::make_unique<Int8Product>(m));
    else if (v == Ozaki2Variant::Rare) out.push_back(std::make_unique<RareProduct>(m, k));
    else if (v == Ozaki2Variant::Fp4) out.push_back(std::make_unique<Fp4TwoLimbProduct>(m));
    else if (std::find(squares.begin(), squares.end(), m) != squares.end()) out.push_back(std::make_unique<Fp8SquareProduct>(m));
    else out.push_back(std::make_unique<Fp8KaratsubaProduct>(m));
  }
  return out;
}

}  // namespace ozref::schemes
