#include "schemes/ozaki2/setup.hpp"

#include <algorithm>
#include <cmath>

#include "schemes/ozaki2/rare.hpp"

namespace ozref::schemes::ozaki2 {
namespace {

std::vector<int64_t> moduli_of(const std::vector<std::unique_ptr<ModularProduct>>& products) {
  std::vector<int64_t> v;
  for (const auto& p : products) v.push_back(p->modulus());
  return v;
}

}  // namespace

Setup::Setup(const Ozaki2Options& options, size_t rows, size_t cols, size_t depth, size_t parts)
    : o(options),
      family(ozaki2_family(options.variant)),
      lowp(scheme_instruction(options.arch, family.format, options.op, family.scheme), family.format),
      N(ozaki2_moduli_count(options, depth)),
      m(rows),
      n(cols),
      k(depth),
      S(parts),
      P(parts == 2 ? 3 : 1),
      Q(parts == 2 ? 3 : 1),
      pairs(parts == 2 ? std::vector<std::pair<size_t, size_t>>{{0, 0}, {1, 1}, {2, 2}}
                       : std::vector<std::pair<size_t, size_t>>{{0, 0}}),
      products(make_products(options.variant, N, depth)),
      moduli(moduli_of(products)),
      crt(moduli),
      int8(family.format == LowpFormat::Int8),
      rare(options.variant == Ozaki2Variant::Rare),
      narrow(*std::max_element(moduli.begin(), moduli.end()) <= 256),
      limb_base(N + 1, 0),
      term_base(N + 1, 0) {
  for (size_t t = 0; t < N; ++t) {
    limb_base[t + 1] = limb_base[t] + products[t]->limbs();
    term_base[t + 1] = term_base[t] + products[t]->terms().size();
  }
}

long double Setup::log2_bound() const { return std::log2(crt.product().get_d()) - 2; }

size_t Setup::crt_words() const {
  const size_t bits = mpz_sizeinbase(crt.product().get_mpz_t(), 2) + 1;  // P/2 and the sign
  return std::max<size_t>(2, (bits + 63) / 64);  // at least the 128 bits of the fast path
}

std::vector<size_t> Setup::moduli_batches() const {
  std::vector<size_t> rows(N + 1);
  for (size_t t = 0; t <= N; ++t) rows[t] = t;
  return rows;
}

Magnitudes magnitudes(const Tensor& x, size_t parts, size_t rows, size_t cols) {
  Magnitudes out;
  if (parts == 1) {
    out.view = part_of(x, 0, rows, cols);
    return out;
  }
  const MatrixView<double> re = part_of(x, 0, rows, cols), im = part_of(x, 1, rows, cols);
  out.owned = Matrix<double>(rows, cols);
  for (size_t v = 0; v < rows * cols; ++v) {
    double mag = std::fabs(re.data[v]);
    if (im.data[v] != 0) mag = std::nextafter(mag + std::fabs(im.data[v]), HUGE_VAL);
    out.owned.data[v] = mag;
  }
  out.view = out.owned;
  return out;
}

std::string Setup::modulus_label(size_t t) const { return "modulus " + std::to_string(moduli[t]); }

}  // namespace ozref::schemes::ozaki2
