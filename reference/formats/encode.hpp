#pragma once
#include <cstdint>

#include "formats/format.hpp"
#include "formats/value.hpp"

namespace ozref {

enum class Rounding { NearestEven, TowardZero };

// What happens to a finite value beyond the largest finite magnitude after rounding, and to an
// infinite input. SatFinite: clamp to +-max finite (CUDA's __NV_SATFINITE, PTX's .satfinite;
// NaN stays NaN). NoSat: infinity where the format has one, else NaN where it has one (OCP e4m3fn
// non-saturating mode), else +-max finite (E2M1 has neither). Under TowardZero a finite overflow
// gives +-max finite in both modes, as IEEE 754 rounding toward zero does.
enum class Overflow { SatFinite, NoSat };

struct EncodeResult {
  uint64_t bits = 0;
  bool inexact = false;
  bool overflow = false;
  bool underflow = false;  // tiny and inexact, or clamped up to UE8M0's smallest scale
  bool invalid = false;    // NaN into a format without NaN, or a negative value into an unsigned one
};

// Encodes (-1)^negative * significand * 2^exponent, plus, when `sticky` is set, a positive amount
// strictly below 2^exponent (the bits a wider computation dropped). A sticky input is accepted only
// where the rounding position lies above 2^exponent, so that the dropped bits can only be "below
// half an ulp and nonzero"; otherwise std::logic_error (a caller bug, not bad input).
// Special cases: NaN gives the canonical NaN with the input's sign; NaN into E2M1 (no NaN) gives
// 0b1000 and `invalid`, following ml_dtypes' float4_e2m1fn; a negative nonzero value into an
// unsigned format gives NaN and `invalid`; zero into UE8M0 (no zero) gives NaN and `invalid`;
// a positive value below UE8M0's smallest scale 2^-127 gives 2^-127 and `underflow`.
EncodeResult encode(const FormatSpec& spec, const ExactValue& value, Rounding rounding,
                    Overflow overflow, bool sticky = false);

// Convenience: re-encode an encoding of one format in another (the conversion instructions).
EncodeResult convert(const FormatSpec& from, uint64_t bits, const FormatSpec& to, Rounding rounding,
                     Overflow overflow);

}  // namespace ozref
