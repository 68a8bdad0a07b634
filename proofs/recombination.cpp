// recombine.ozaki2_<fp8|fp4>: for every modulus of the list and every pair of balanced residues
// (r, r'), the limbs split() writes are valid (check_split, an exact encoding in the format) and
// the weighted, reduced sum of the limb products is the balanced residue of r r'. Exhaustive. A
// GEMM output is the sum over k of these limb products, and the combination is linear modulo m,
// so with exact GEMMs the pair case proves every K.
// gemm_count.ozaki2_<fp8|fp4>: the low-precision GEMMs per modulus and in all, against the
// published counts (FP4 paper: 75 for OzII-FP4 with 19 moduli, 39 for GEMMul8-FP8).
// int8_on_fp4.products: for every pair of INT8 values, the three greedy base-13 digits of each
// and the nine digit products weighted by 13^(i+j) give the INT8 product. Exhaustive.
#include <cstdlib>

#include "schemes/common/base13.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/modular_product.hpp"
#include "theorem.hpp"

namespace ozref::proofs {
namespace {

using schemes::Ozaki2Variant;

Result recombine(Ozaki2Variant v) {
  const schemes::Ozaki2Family& f = schemes::ozaki2_family(v);
  const auto products = schemes::make_products(v, f.moduli.size());
  const schemes::LowpGemm lowp(schemes::scheme_instruction("ideal", f.format, "", f.scheme), f.format);
  Result r;
  r.status = Status::Proved;
  uint64_t pairs = 0;
  int largest_limb = 0;
  std::vector<int8_t> la(4), lb(4);
  std::vector<int64_t> outs(4);
  for (const auto& p : products) {
    const int64_t m = p->modulus();
    for (int64_t x = -(m / 2); x <= (m - 1) / 2 && r.status == Status::Proved; ++x) {
      p->split(int32_t(x), la.data());
      const std::string why = p->check_split(int32_t(x), la.data());
      for (size_t q = 0; q < p->limbs(); ++q) {
        largest_limb = std::max(largest_limb, std::abs(int(la[q])));
        if (!lowp.representable(la[q])) r.detail = p->name() + ": limb " + std::to_string(la[q]) + " of " + std::to_string(x) + " has no exact encoding";
      }
      if (!why.empty()) r.detail = p->name() + ": " + why;
      for (int64_t y = -(m / 2); y <= (m - 1) / 2 && r.detail.empty(); ++y) {
        p->split(int32_t(y), lb.data());
        for (size_t g = 0; g < p->terms().size(); ++g)
          outs[g] = int64_t(la[p->terms()[g].a_limb]) * lb[p->terms()[g].b_limb];
        const int32_t got = p->combine(outs.data()), want = schemes::balanced_residue(x * y, m);
        if (got != want)
          r.detail = p->name() + ": residues " + std::to_string(x) + " x " + std::to_string(y) + " recombine to " +
                     std::to_string(got) + ", not " + std::to_string(want);
        ++pairs;
      }
      if (!r.detail.empty()) r.status = Status::Refuted;
    }
  }
  r.data = {{"moduli", f.moduli}, {"pairs", pairs}, {"largest_limb", largest_limb}};
  return r;
}

Result gemm_count(Ozaki2Variant v) {
  const schemes::Ozaki2Family& f = schemes::ozaki2_family(v);
  const auto products = schemes::make_products(v, f.moduli.size());
  nlohmann::json per_modulus = nlohmann::json::array(), cumulative = nlohmann::json::array();
  size_t total = 0;
  for (const auto& p : products) {
    total += p->terms().size();
    per_modulus.push_back({{"modulus", p->modulus()}, {"gemms", p->terms().size()}});
    cumulative.push_back(total);
  }
  Result r;
  r.data = {{"per_modulus", per_modulus}, {"total_by_moduli_count", cumulative}};
  // Published: OzII-FP4 with its 19 moduli needs 75 FP4 GEMMs; GEMMul8-FP8 39 FP8 GEMMs (13 moduli).
  const size_t claimed_n = v == Ozaki2Variant::Fp4 ? 19 : 13, claimed = v == Ozaki2Variant::Fp4 ? 75 : 39;
  const size_t ours = cumulative[claimed_n - 1].get<size_t>();
  r.data["published"] = {{"moduli", claimed_n}, {"gemms", claimed}, {"ours", ours}};
  r.status = ours == claimed ? Status::Proved : Status::Refuted;
  if (ours != claimed) r.detail = std::to_string(ours) + " GEMMs for " + std::to_string(claimed_n) + " moduli, published " + std::to_string(claimed);
  return r;
}

Result int8_on_fp4() {
  Result r;
  r.status = Status::Proved;
  int8_t da[3], db[3];
  int largest = 0;
  for (int x = -128; x <= 127 && r.status == Status::Proved; ++x) {
    if (!schemes::to_base13(x, 3, da)) {
      r.status = Status::Refuted;
      r.detail = std::to_string(x) + " needs more than three digits";
    }
    for (int i = 0; i < 3; ++i) largest = std::max(largest, std::abs(int(da[i])));
    for (int y = -128; y <= 127 && r.status == Status::Proved; ++y) {
      schemes::to_base13(y, 3, db);
      int64_t sum = 0, w[5] = {1, 13, 169, 2197, 28561};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) sum += w[i + j] * da[i] * db[j];
      if (sum != int64_t(x) * y) {
        r.status = Status::Refuted;
        r.detail = std::to_string(x) + " x " + std::to_string(y) + " gives " + std::to_string(sum);
      }
    }
  }
  // Each GEMM sums products of at most largest^2 (in units of 1/4 as E2M1 values): exact in an FP32
  // accumulator while K largest^2 <= 2^24, far above the scheme's K limit of 116509.
  r.data = {{"pairs", 65536}, {"largest_digit", largest}, {"k_max_exact_fp32", (int64_t{1} << 24) / (largest * largest)}};
  return r;
}

}  // namespace

std::vector<Theorem> recombination_theorems() {
  return {
      {"recombine.ozaki2_fp8", "for every FP8 modulus and every pair of balanced residues, the square or Karatsuba limbs are valid e4m3 integers and recombine to the residue of the product",
       "exhaustive over all residue pairs", false, [] { return recombine(Ozaki2Variant::Fp8); }},
      {"recombine.ozaki2_fp4", "for every FP4 modulus and every pair of balanced residues, the two-limb digits are in S and recombine to the residue of the product",
       "exhaustive over all residue pairs", false, [] { return recombine(Ozaki2Variant::Fp4); }},
      {"gemm_count.ozaki2_fp4", "OzII-FP4 with its 19 moduli issues 75 FP4 GEMMs (3 for 169 = 13^2, 4 for every other)",
       "count over the scheme's modular products", false, [] { return gemm_count(Ozaki2Variant::Fp4); }},
      {"gemm_count.ozaki2_fp8", "GEMMul8-FP8 issues 3 FP8 GEMMs per modulus (39 for 13 moduli)",
       "count over the scheme's modular products", false, [] { return gemm_count(Ozaki2Variant::Fp8); }},
      {"int8_on_fp4.products", "every INT8 product is the 13^(i+j)-weighted sum of the nine products of the three greedy base-13 digits",
       "exhaustive over all 65536 INT8 pairs", false, int8_on_fp4},
  };
}

}  // namespace ozref::proofs
