#include "schemes/ozaki2/complex_product.hpp"

#include "common/named_choice.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"

namespace ozref::schemes {

ComplexProduct parse_complex_product(const std::string& name) {
  return named_choice<ComplexProduct>(name, "--complex-product", {{"3m", ComplexProduct::ThreeM}, {"gaussian", ComplexProduct::Gaussian}});
}

std::string to_string(ComplexProduct p) { return p == ComplexProduct::ThreeM ? "3m" : "gaussian"; }

GaussianModulus::GaussianModulus(int64_t modulus)
    : m(modulus), iota(sqrt_minus_one(modulus)), half((modulus + 1) / 2), iota_half(balanced_residue(iota * half, modulus)) {}

int64_t GaussianModulus::plane(int64_t re, int64_t im, int sign) const { return balanced_residue(re + sign * iota * im, m); }

int64_t GaussianModulus::real(int64_t z, int64_t w) const { return balanced_residue((z + w) * half, m); }

int64_t GaussianModulus::imag(int64_t z, int64_t w) const { return balanced_residue((w - z) * iota_half, m); }

}  // namespace ozref::schemes
