// RapidCheck generators over encodings, not host floats: a class is drawn first (zero, subnormal,
// normal near 1, extreme exponents, infinity, NaN where the format has them), then the bits of
// that class. Shrinking follows the class order (toward zero and small normals) and the fields.
#pragma once
#include <rapidcheck.h>

#include <cstdint>
#include <string>

#include "formats/format.hpp"

namespace ozref::test {

enum class DrawClass { Zero, Subnormal, NearOne, Extreme, Infinity, NaN };

inline const char* class_name(DrawClass c) {
  static const char* names[] = {"zero", "subnormal", "near one", "extreme", "infinity", "nan"};
  return names[static_cast<int>(c)];
}

struct Encoding {
  uint64_t bits = 0;
  DrawClass drawn = DrawClass::Zero;
};

inline rc::Gen<Encoding> gen_encoding(const FormatSpec& f, bool allow_special = true) {
  std::vector<DrawClass> classes = {DrawClass::Zero, DrawClass::NearOne, DrawClass::Extreme};
  if (f.has_subnormals && f.fraction_bits > 0) classes.push_back(DrawClass::Subnormal);
  if (allow_special && f.has_infinity) classes.push_back(DrawClass::Infinity);
  if (allow_special && f.nan_rule != NanRule::None) classes.push_back(DrawClass::NaN);
  return rc::gen::mapcat(rc::gen::elementOf(classes), [&f](DrawClass c) {
    return rc::gen::map(rc::gen::tuple(rc::gen::arbitrary<bool>(), rc::gen::inRange<uint64_t>(0, f.fraction_mask() + 1),
                                       rc::gen::inRange<uint64_t>(0, f.exponent_field_max() + 1)),
                        [&f, c](const std::tuple<bool, uint64_t, uint64_t>& t) {
                          const auto [neg, frac, exp_any] = t;
                          const uint64_t sign = neg && f.is_signed ? f.sign_mask() : 0;
                          const uint64_t emax = f.exponent_field_max();
                          uint64_t e = 0, fr = frac;
                          switch (c) {
                            case DrawClass::Zero: fr = 0; e = f.has_subnormals ? 0 : 0; break;
                            case DrawClass::Subnormal: e = 0; fr = frac ? frac : 1; break;
                            case DrawClass::NearOne: e = uint64_t(f.bias) + (exp_any % 3) - 1; break;
                            case DrawClass::Extreme: e = exp_any % 2 ? (f.has_subnormals ? 1 : 0) : emax - (f.nan_rule == NanRule::ExponentAllOnes ? 1 : 0); break;
                            case DrawClass::Infinity: e = emax; fr = 0; break;
                            case DrawClass::NaN: return Encoding{sign | f.canonical_nan(), c};
                          }
                          uint64_t bits = sign | (e << f.fraction_bits) | fr;
                          if (f.nan_rule == NanRule::AllOnes && (bits & ~f.sign_mask()) == ((emax << f.fraction_bits) | f.fraction_mask()) &&
                              c != DrawClass::NaN)
                            bits -= 1;  // the NaN pattern of e4m3/ue8m0: step down to max finite
                          return Encoding{bits & f.encoding_mask(), c};
                        });
  });
}

}  // namespace ozref::test
