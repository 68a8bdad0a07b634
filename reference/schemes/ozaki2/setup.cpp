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

// 3M's planes re, im, re + im; the Gaussian planes re + iota im, re - iota im.
size_t plane_count(size_t parts, ComplexProduct p) { return parts == 1 ? 1 : p == ComplexProduct::ThreeM ? 3 : 2; }

// Each plane product multiplies A's plane q by B's plane q.
std::vector<std::pair<size_t, size_t>> same_plane_pairs(size_t planes) {
  std::vector<std::pair<size_t, size_t>> v;
  for (size_t q = 0; q < planes; ++q) v.push_back({q, q});
  return v;
}

std::vector<GaussianModulus> gaussian_moduli(size_t parts, ComplexProduct p, const std::vector<int64_t>& moduli) {
  if (parts == 1 || p != ComplexProduct::Gaussian) return {};
  return std::vector<GaussianModulus>(moduli.begin(), moduli.end());
}

}  // namespace

Setup::Setup(const Ozaki2Options& options, size_t rows, size_t cols, size_t depth, size_t parts)
    : o(options),
      family(ozaki2_family(options.variant, options.complex_product)),
      lowp(scheme_instruction(options.arch, family.format, options.op, family.scheme), family.format),
      N(ozaki2_moduli_count(options, depth)),
      m(rows),
      n(cols),
      k(depth),
      S(parts),
      P(plane_count(parts, options.complex_product)),
      Q(P),
      kblock(options.kblock && options.kblock < depth ? options.kblock : depth),
      kblocks(kblock ? (depth + kblock - 1) / kblock : 1),
      pairs(same_plane_pairs(P)),
      products(options.moduli_list.empty() ? make_products(options.variant, N, depth, options.complex_product)
                                           : make_products_of(options.variant, options.moduli_list, depth)),
      moduli(moduli_of(products)),
      gaussian(gaussian_moduli(parts, options.complex_product, moduli)),
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

Axis Setup::moduli_axis() const {
  Axis a{"N", N};
  for (size_t t = 0; t < N; ++t) a.labels.push_back(modulus_label(t));
  return a;
}

Axis Setup::parts_axis() const { return {"2", S, true, {"re", "im"}}; }

Axis Setup::planes_axis() const {
  Axis a{"3", P, true};
  for (size_t p = 0; p < P; ++p) a.labels.push_back(std::string("plane ") + plane_name(p));
  return a;
}

Axis Setup::products_axis() const {
  Axis a{"3", Q, true};
  for (size_t q = 0; q < Q; ++q) a.labels.push_back(std::string("product ") + plane_name(pairs[q].first));
  return a;
}

Axis Setup::kblocks_axis() const {
  Axis a{"B", kblocks, true};
  for (size_t b = 0; b < kblocks; ++b) a.labels.push_back("K-block " + std::to_string(b));
  return a;
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

const char* Setup::plane_name(size_t plane) const {
  static const char* three_m[] = {"re", "im", "re+im"};
  static const char* gaussian_planes[] = {"re+i*im", "re-i*im"};
  if (P == 1) return "";
  return gaussian.empty() ? three_m[plane] : gaussian_planes[plane];
}

nlohmann::json Setup::kernel_constants() const {
  nlohmann::json moduli_json = nlohmann::json::array(), weights = nlohmann::json::array();
  for (size_t t = 0; t < N; ++t) {
    moduli_json.push_back({{"modulus", moduli[t]}, {"residues", {-(moduli[t] / 2), (moduli[t] + 1) / 2 - 1}}, {"limbs", products[t]->limbs()}});
    weights.push_back(crt.weights()[t].get_str());
  }
  const double log2_p = std::log2(crt.product().get_d());
  return {{"moduli", moduli_json},
          {"P", crt.product().get_str()},
          {"log2_P", log2_p},
          {"crt_weights", weights},
          {"crt", "C' = sum_i r_i w_i reduced into (-P/2, P/2]; w_i = q_i P / p_i with q_i = (P / p_i)^-1 mod p_i"},
          {"exactness", "sum_k |A'[i, k]| |B'[k, j]| < P/2 for every i, j"},
          {"log2_half_P", log2_p - 1},
          {"max_k", ozaki2_max_k(o.variant)},
          {"kblock", kblock},
          {"kblocks", kblocks},
          {"gemm_dtype", std::string(dtype_name(gemm_dtype()))},
          {"instruction", lowp.spec().op}};
}

}  // namespace ozref::schemes::ozaki2
