// The exact value an encoding stands for: (-1)^negative * significand * 2^exponent, with its class.
#pragma once
#include <cstdint>

namespace ozref {

enum class FloatClass { Zero, Subnormal, Normal, Infinity, NaN };

struct ExactValue {
  FloatClass cls = FloatClass::Zero;
  bool negative = false;
  uint64_t significand = 0;  // integer significand (hidden bit included for normals)
  int exponent = 0;          // power of two applied to the integer significand

  bool is_finite() const { return cls != FloatClass::Infinity && cls != FloatClass::NaN; }
  bool operator==(const ExactValue&) const = default;
};

}  // namespace ozref
