// A wide two's-complement fixed-point integer held in little-endian 64-bit words, into which exact
// products are added at bit offsets. The value it stands for is integer * 2^base, where base is
// kept by the caller. Word spans let one flat buffer hold the accumulators of a whole matrix.
#pragma once
#include <cstdint>
#include <span>

#include "formats/value.hpp"

namespace ozref {

using u128 = unsigned __int128;

// acc += (negative ? -1 : 1) * magnitude * 2^shift. The caller sizes acc so the exact sum fits.
void accumulate(std::span<uint64_t> acc, bool negative, u128 magnitude, unsigned shift);

inline void accumulate(std::span<uint64_t> acc, int64_t value, unsigned shift) {
  const bool negative = value < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  accumulate(acc, negative, magnitude, shift);
}

// acc = -acc in two's complement.
void negate(std::span<uint64_t> acc);

// The accumulator's value (times 2^base) as sign, the top 64 significant bits and the exponent of
// the last of them; `sticky` tells whether nonzero bits lie below. The class is Zero or Normal.
ExactValue leading_bits(std::span<const uint64_t> acc, int base, bool& sticky);

// The same for the value (-1)^negative * magnitude * 2^base (magnitude little-endian, unsigned).
ExactValue leading_bits(bool negative, std::span<const uint64_t> magnitude, int base, bool& sticky);

}  // namespace ozref
