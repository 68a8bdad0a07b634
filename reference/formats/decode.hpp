#pragma once
#include <cstdint>

#include "formats/format.hpp"
#include "formats/value.hpp"

namespace ozref {

// The exact value of an encoding. Bits above the format's width must be zero.
ExactValue decode(const FormatSpec& spec, uint64_t bits);
FloatClass classify(const FormatSpec& spec, uint64_t bits);

}  // namespace ozref
