// fuzz_formats: input bytes decoded as encodings. Byte 0 picks the format (mode byte); the rest is
// the encoding (little-endian) and a second format to convert into. Checks: decode/encode round
// trip of finite values; conversion results are the nearest value (checked against the decoded
// neighbours of the result: no representable value lies strictly closer), and RZ never rounds up.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "formats/decode.hpp"
#include "formats/encode.hpp"

namespace {
long double value_of(const ozref::ExactValue& v) {
  const long double x = std::ldexp(static_cast<long double>(v.significand), v.exponent);
  return v.negative ? -x : x;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ozref;
  if (size < 3) return 0;
  const auto& ids = all_formats();
  const FormatSpec& from = format_spec(ids[data[0] % ids.size()]);
  const FormatSpec& to = format_spec(ids[(data[0] / ids.size()) % ids.size()]);
  uint64_t bits = 0;
  for (size_t i = 1; i < size && i <= 8; ++i) bits |= uint64_t{data[i]} << (8 * (i - 1));
  bits &= from.encoding_mask();
  const ExactValue v = decode(from, bits);
  if (!v.is_finite()) return 0;
  if (encode(from, v, Rounding::NearestEven, Overflow::NoSat).bits != bits && !(from.sign_bit_ignored && (bits & from.sign_mask())))
    std::abort();
  if (to.bits > 16 || (!to.is_signed && v.negative)) return 0;  // small targets: check by enumeration
  const EncodeResult r = encode(to, v, Rounding::NearestEven, Overflow::SatFinite);
  const EncodeResult z = encode(to, v, Rounding::TowardZero, Overflow::SatFinite);
  if (r.invalid) return 0;
  const long double x = value_of(v);
  const long double got = value_of(decode(to, r.bits)), got_z = value_of(decode(to, z.bits));
  // Toward zero never increases the magnitude, except where the format has no zero (UE8M0): a
  // value below its smallest scale 2^-127 clamps up to it (docs/formats.md; found by this fuzzer).
  if (std::fabs(got_z) > std::fabs(x) && !(z.underflow && !to.has_subnormals)) std::abort();
  for (uint64_t e = 0; e < (uint64_t{1} << to.bits); ++e) {  // nothing representable is strictly nearer
    const ExactValue c = decode(to, e);
    if (!c.is_finite()) continue;
    if (std::fabs(value_of(c) - x) < std::fabs(got - x)) std::abort();
  }
  return 0;
}
