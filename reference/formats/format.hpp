// The number formats ozref models, each described by one FormatSpec; decode and encode are generic
// over the spec, so a format is a row of the table in format.cpp, not a new code path.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ozref {

enum class FormatId { E4M3, E5M2, E2M1, UE8M0, UE4M3, FP16, BF16, FP32, FP64 };

// Which encodings are NaN.
enum class NanRule {
  None,            // no NaN (E2M1)
  ExponentAllOnes, // IEEE: exponent field all ones and fraction nonzero (E5M2, FP16, BF16, FP32, FP64)
  AllOnes,         // only exponent and fraction both all ones (OCP e4m3fn, UE4M3, UE8M0's 0xFF)
};

struct FormatSpec {
  FormatId id;
  std::string_view name;
  int bits;            // total width of the encoding
  int exponent_bits;
  int fraction_bits;   // stored fraction bits (precision is fraction_bits + 1)
  int bias;
  bool is_signed;      // values can be negative (UE8M0 and UE4M3 cannot)
  bool sign_bit_ignored;  // an 8-bit container whose top bit is not part of the value (UE4M3:
                          // PTX's unsigned E4M3 scale; the bit is dropped on decode, 0 on encode)
  bool has_infinity;   // exponent all ones with zero fraction is infinity (IEEE-like formats only)
  NanRule nan_rule;
  bool has_subnormals; // exponent field 0 encodes zero and subnormals; false for UE8M0 (no zero)

  uint32_t exponent_field_max() const { return (1u << exponent_bits) - 1; }
  uint64_t fraction_mask() const { return (uint64_t{1} << fraction_bits) - 1; }
  uint64_t sign_mask() const {
    return is_signed || sign_bit_ignored ? uint64_t{1} << (bits - 1) : 0;
  }
  uint64_t encoding_mask() const { return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }
  // Unbiased exponent of the smallest normal number.
  int min_normal_exponent() const { return (has_subnormals ? 1 : 0) - bias; }
  // Encoding of the largest finite magnitude (positive sign).
  uint64_t max_finite_encoding() const;
  // Canonical quiet NaN encoding (positive sign); only meaningful when nan_rule != None.
  uint64_t canonical_nan() const;
};

const FormatSpec& format_spec(FormatId id);
// Looks a format up by its name ("e4m3", "fp64", ...); throws InputError naming the bad name.
const FormatSpec& format_by_name(std::string_view name);
const std::vector<FormatId>& all_formats();

}  // namespace ozref
