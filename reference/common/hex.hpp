// A 32-bit pattern as eight lowercase hex digits without a prefix (1.0f is 3f800000): how MMA trace
// records, reproducers and reports write an accumulator's or a result's bits.
#pragma once
#include <cstdint>
#include <string>

namespace ozref {

std::string to_hex32(uint32_t bits);

}  // namespace ozref
