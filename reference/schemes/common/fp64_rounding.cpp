#include "schemes/common/fp64_rounding.hpp"

#include <cmath>

#include "exact/rational_oracle.hpp"
#include "formats/encode.hpp"

namespace ozref::schemes {

namespace {
// (-1)^negative * top * 2^e plus, when sticky, a positive amount below 2^e, rounded to FP64.
double round_top64(bool negative, uint64_t top, int e, bool sticky) {
  const ExactValue v{FloatClass::Normal, negative, top, e};
  return std::bit_cast<double>(encode(format_spec(FormatId::FP64), v, Rounding::NearestEven, Overflow::NoSat, sticky).bits);
}

// c rounded to the nearest double, ties to even, as static_cast<double> does but inline (libgcc's
// generic __floattidf is most of the unscale stage's time): beyond 64 bits, the top 64 bits of |c|
// with the bits below them ORed into the lowest one. That sticky bit lies below the rounding
// position (a 64-bit integer keeps 53 of its bits), so it decides ties and halfway cases as the
// dropped bits do; the conversion rounds once and 2^drop scales exactly.
// The sign is applied with bit operations, not branches: it is random in the unscale stage's data.
double nearest_of_int128(__int128 c) {
  const auto negative = static_cast<uint64_t>(static_cast<unsigned __int128>(c) >> 127);
  const unsigned __int128 sign_mask = -static_cast<unsigned __int128>(negative);
  const unsigned __int128 mag = (static_cast<unsigned __int128>(c) ^ sign_mask) + negative;  // |c|
  const auto high = static_cast<uint64_t>(mag >> 64), low = static_cast<uint64_t>(mag);
  double magnitude;
  if (high == 0) {
    magnitude = static_cast<double>(low);
  } else {
    const int drop = 64 - __builtin_clzll(high);              // 1 .. 64
    const bool sticky = (low << (64 - drop)) != 0;            // the low `drop` bits
    const double top = static_cast<double>(static_cast<uint64_t>(mag >> drop) | uint64_t{sticky});
    magnitude = top * std::bit_cast<double>(static_cast<uint64_t>(drop + 1023) << 52);
  }
  return std::bit_cast<double>(std::bit_cast<uint64_t>(magnitude) | negative << 63);
}

}  // namespace

double nearest_double(const mpz_class& c, int e) {
  if (c == 0) return 0.0;
  mpz_class mag = abs(c);
  const long bits = static_cast<long>(mpz_sizeinbase(mag.get_mpz_t(), 2));
  bool sticky = false;
  if (bits > 64) {
    sticky = static_cast<long>(mpz_scan1(mag.get_mpz_t(), 0)) < bits - 64;
    mag >>= static_cast<mp_bitcnt_t>(bits - 64);
    e += static_cast<int>(bits - 64);
  }
  return round_top64(c < 0, mpz_get_ui(mag.get_mpz_t()), e, sticky);
}

double nearest_double(__int128 c, int e) {
  if (c == 0) return 0.0;
  if (const double scale = normal_power_of_two(e); scale != 0) {
    // c rounds to nearest even, and with |c| >= 1 the scaled value is at least 2^-1022: normal,
    // where scaling by 2^e commutes with the rounding (an overflow is infinity both ways). The
    // unscale stage's common case.
    return nearest_of_int128(c) * scale;
  }
  unsigned __int128 mag = c < 0 ? -static_cast<unsigned __int128>(c) : static_cast<unsigned __int128>(c);
  const uint64_t high = static_cast<uint64_t>(mag >> 64);
  const int bits = high ? 128 - __builtin_clzll(high) : 64 - __builtin_clzll(static_cast<uint64_t>(mag));
  bool sticky = false;
  if (bits > 64) {
    const int drop = bits - 64;
    sticky = (mag & ((static_cast<unsigned __int128>(1) << drop) - 1)) != 0;
    mag >>= drop;
    e += drop;
  }
  return round_top64(c < 0, static_cast<uint64_t>(mag), e, sticky);
}

bool is_correct_rounding(const mpz_class& c, int e, double got) {
  const mpq_class exact = mpq_class(c) * oracle::pow2(e);
  const oracle::Rounded want = oracle::round(exact, oracle::binary64(), true);
  const double expect = want.overflow ? std::copysign(HUGE_VAL, exact.get_d()) : want.value.get_d();
  return expect == got && (expect != 0 || std::signbit(got) == (exact < 0));
}

}  // namespace ozref::schemes
