// fuzz_limbs: the limb decompositions of the FP8 and FP4 schemes on values from the input bytes.
// The mode byte picks the check:
//   0  base-13 greedy digits: p in 1..12, x in [-X_p, X_p]: p digits in S that add back to x;
//   1  an Ozaki-II modular product (fp8 square or Karatsuba, fp4 two-limb; modulus from the next
//      byte) on two residues: valid limbs (check_split, exact encodings) and the weighted limb
//      products recombine to the residue of the product.
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "schemes/common/base13.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/modular_product.hpp"

namespace {

using namespace ozref::schemes;

int64_t read_int(const uint8_t* data, size_t size, size_t from) {
  uint64_t v = 0;
  for (size_t i = from; i < from + 8 && i < size; ++i) v = v << 8 | data[i];
  return static_cast<int64_t>(v >> 1);  // non-negative
}

void digits(const uint8_t* data, size_t size) {
  const int p = 1 + data[1] % 12;
  const int64_t range = base13_range(p);
  int64_t x = read_int(data, size, 2) % (2 * range + 1) - range;
  int8_t d[12];
  if (!to_base13(x, p, d)) std::abort();
  int64_t back = 0;
  for (int i = p - 1; i >= 0; --i) {
    if (!in_digit_set(d[i]) || std::abs(d[i]) > 8) std::abort();
    back = back * 13 + d[i];
  }
  if (back != x) std::abort();
}

void product(const uint8_t* data, size_t size) {
  static const auto fp8 = make_products(Ozaki2Variant::Fp8, 20);
  static const auto fp4 = make_products(Ozaki2Variant::Fp4, 19);
  static const LowpGemm e4m3(scheme_instruction("ideal", LowpFormat::E4M3, "", "fuzz"), LowpFormat::E4M3);
  static const LowpGemm e2m1(scheme_instruction("ideal", LowpFormat::E2M1, "", "fuzz"), LowpFormat::E2M1);
  const bool use_fp4 = data[1] & 1;
  const auto& list = use_fp4 ? fp4 : fp8;
  const ModularProduct& p = *list[(data[1] >> 1) % list.size()];
  const LowpGemm& g = use_fp4 ? e2m1 : e4m3;
  const int64_t m = p.modulus();
  const int32_t x = int32_t(read_int(data, size, 2) % m - m / 2), y = int32_t(read_int(data, size, 10) % m - m / 2);
  int8_t lx[4], ly[4];
  p.split(x, lx);
  p.split(y, ly);
  if (!p.check_split(x, lx).empty() || !p.check_split(y, ly).empty()) std::abort();
  for (size_t q = 0; q < p.limbs(); ++q)
    if (!g.representable(lx[q]) || !g.representable(ly[q])) std::abort();
  int64_t outs[4];
  for (size_t t = 0; t < p.terms().size(); ++t) outs[t] = int64_t(lx[p.terms()[t].a_limb]) * ly[p.terms()[t].b_limb];
  if (p.combine(outs) != balanced_residue(int64_t(x) * y, m)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  if (data[0] % 2 == 0) digits(data, size);
  else product(data, size);
  return 0;
}
