// formats.<e4m3|e5m2|e2m1>.products_exact_fp32: every product of two finite values of the format is
// exactly representable in FP32. Exhaustive over all pairs of encodings; a product is exact in
// FP32 when its odd significand has at most 24 bits and its value lies in FP32's finite range
// with its lowest set bit at or above 2^-149.
#include <bit>

#include "formats/decode.hpp"
#include "theorem.hpp"

namespace ozref::proofs {
namespace {

Result products_exact(FormatId id) {
  const FormatSpec& f = format_spec(id);
  const uint64_t n = uint64_t{1} << f.bits;
  uint64_t pairs = 0;
  int widest = 0;
  for (uint64_t x = 0; x < n; ++x)
    for (uint64_t y = 0; y < n; ++y) {
      const ExactValue a = decode(f, x), b = decode(f, y);
      if (!a.is_finite() || !b.is_finite()) continue;
      ++pairs;
      uint64_t sig = a.significand * b.significand;
      if (sig == 0) continue;
      int exp = a.exponent + b.exponent;
      const int tz = std::countr_zero(sig);
      sig >>= tz;
      exp += tz;
      const int bits = std::bit_width(sig);
      widest = std::max(widest, bits);
      const int top = exp + bits;  // the value is below 2^top
      if (bits > 24 || exp < -149 || top > 128) {
        Result r;
        r.status = Status::Refuted;
        r.detail = std::string(f.name) + " encodings " + std::to_string(x) + " * " + std::to_string(y) + " are not exact in FP32";
        return r;
      }
    }
  Result r;
  r.status = Status::Proved;
  r.data = {{"finite_pairs", pairs}, {"widest_product_significand_bits", widest}};
  return r;
}

}  // namespace

std::vector<Theorem> format_theorems() {
  std::vector<Theorem> out;
  for (FormatId id : {FormatId::E4M3, FormatId::E5M2, FormatId::E2M1}) {
    const std::string name(format_spec(id).name);
    out.push_back({"formats." + name + ".products_exact_fp32",
                   "every product of two finite " + name + " values is exact in FP32",
                   "exhaustive over all encoding pairs", false, [id] { return products_exact(id); }});
  }
  return out;
}

}  // namespace ozref::proofs
