#include "formats/decode.hpp"

namespace ozref {

FloatClass classify(const FormatSpec& spec, uint64_t bits) {
  const uint64_t magnitude = bits & ~spec.sign_mask();
  const uint64_t exp_field = magnitude >> spec.fraction_bits;
  const uint64_t fraction = magnitude & spec.fraction_mask();
  const uint64_t exp_ones = spec.exponent_field_max();
  switch (spec.nan_rule) {
    case NanRule::AllOnes:
      if (exp_field == exp_ones && fraction == spec.fraction_mask()) return FloatClass::NaN;
      break;
    case NanRule::ExponentAllOnes:
      if (exp_field == exp_ones) return fraction ? FloatClass::NaN : FloatClass::Infinity;
      break;
    case NanRule::None:
      break;
  }
  if (exp_field == 0 && spec.has_subnormals)
    return fraction == 0 ? FloatClass::Zero : FloatClass::Subnormal;
  return FloatClass::Normal;
}

ExactValue decode(const FormatSpec& spec, uint64_t bits) {
  ExactValue v;
  v.cls = classify(spec, bits);
  v.negative = spec.is_signed && (bits & spec.sign_mask()) != 0;
  if (!v.is_finite()) return v;
  const uint64_t magnitude = bits & ~spec.sign_mask();
  const int exp_field = static_cast<int>(magnitude >> spec.fraction_bits);
  const uint64_t fraction = magnitude & spec.fraction_mask();
  if (v.cls == FloatClass::Normal) {
    v.significand = (uint64_t{1} << spec.fraction_bits) | fraction;
    v.exponent = exp_field - spec.bias - spec.fraction_bits;
  } else {  // zero and subnormals share the minimum normal exponent, without the hidden bit
    v.significand = fraction;
    v.exponent = spec.min_normal_exponent() - spec.fraction_bits;
  }
  return v;
}

}  // namespace ozref
