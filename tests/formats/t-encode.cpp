// Encoding: every gap between neighbouring values of every format of 16 bits or fewer, probed at
// its ends, quarter points, midpoint and just around it (with and without sticky bits), against
// the nearest-value rule on the GMP ladder of the format; overflow, NaN and infinity handling;
// round trips of every encoding.
#include <gmpxx.h>

#include "formats/decode.hpp"
#include "formats/encode.hpp"
#include "formats/field_formula.hpp"
#include "support.hpp"

using namespace ozref;
using ozref::test::CaseCount;

namespace {

// A positive dyadic rational as an ExactValue (num / 2^k with num below 2^62).
ExactValue exact_value_of(const mpq_class& q, bool negative) {
  ExactValue v;
  v.cls = FloatClass::Normal;
  v.negative = negative;
  mpz_class num = q.get_num(), den = q.get_den();
  int exp = 0;
  while (num != 0 && mpz_even_p(num.get_mpz_t())) {
    num /= 2;
    ++exp;
  }
  while (den > 1) {
    den /= 2;
    --exp;
  }
  REQUIRE(mpz_sizeinbase(num.get_mpz_t(), 2) <= 62);
  // Spread the significand over 62 bits, so that a sticky amount (below 2^exponent) lies far below
  // every rounding position of the small formats.
  const int spare = 62 - static_cast<int>(mpz_sizeinbase(num.get_mpz_t(), 2));
  v.significand = mpz_get_ui(num.get_mpz_t()) << spare;
  v.exponent = exp - spare;
  return v;
}

struct Expected {
  uint64_t bits;
  bool overflow;
};

// What rounding must give for x in [lower, upper] of the ladder (indices i and i + 1), by the
// definition: nearest (ties to the even encoding) or toward zero. `above_mid_sticky` says x is
// just above the probe value by an amount below any ulp.
uint64_t round_in_gap(const test::Ladder& l, size_t i, const mpq_class& x, bool sticky,
                      Rounding r) {
  if (x == l.values[i] && !sticky) return l.bits[i];
  if (r == Rounding::TowardZero) return l.bits[i];
  const mpq_class mid = (l.values[i] + l.values[i + 1]) / 2;
  if (x > mid || (x == mid && sticky)) return l.bits[i + 1];
  if (x < mid) return l.bits[i];
  return (l.bits[i] & 1) == 0 ? l.bits[i] : l.bits[i + 1];
}

uint64_t overflow_bits(const FormatSpec& f, bool negative, Rounding r, Overflow o) {
  const uint64_t sign = negative ? f.sign_mask() : 0;
  if (o == Overflow::SatFinite || r == Rounding::TowardZero) return sign | f.max_finite_encoding();
  if (f.has_infinity) return sign | (uint64_t{f.exponent_field_max()} << f.fraction_bits);
  if (f.nan_rule != NanRule::None) return sign | f.canonical_nan();
  return sign | f.max_finite_encoding();
}

const Rounding kRoundings[] = {Rounding::NearestEven, Rounding::TowardZero};
const Overflow kOverflows[] = {Overflow::SatFinite, Overflow::NoSat};

}  // namespace

TEST_CASE("encode: every gap of every small format, both roundings, both signs", "[formats]") {
  CaseCount cases("encode probes");
  for (FormatId id : all_formats()) {
    const FormatSpec& f = format_spec(id);
    if (f.bits > 16) continue;
    const test::Ladder l = test::positive_ladder(f);
    for (size_t i = 0; i + 1 < l.values.size(); ++i) {
      const mpq_class lo = l.values[i], hi = l.values[i + 1], gap = hi - lo;
      const mpq_class probes[] = {lo, lo + gap / 4, lo + gap / 2, lo + 3 * gap / 4,
                                  lo + gap / 2 - gap / 64, lo + gap / 2 + gap / 64};
      for (const mpq_class& x : probes) {
        if (x == 0) continue;
        for (bool sticky : {false, true}) {
          for (bool negative : {false, true}) {
            if (negative && !f.is_signed) continue;
            for (Rounding r : kRoundings) {
              const ExactValue v = exact_value_of(x, negative);
              const uint64_t mag = round_in_gap(l, i, x, sticky, r);
              const uint64_t expect = mag | (negative ? f.sign_mask() : 0);
              const EncodeResult got = encode(f, v, r, Overflow::SatFinite, sticky);
              INFO(f.name << " x=" << x.get_str() << (sticky ? "+sticky" : "") << (negative ? " negative" : "")
                          << (r == Rounding::NearestEven ? " RNE" : " RZ"));
              REQUIRE(got.bits == expect);
              REQUIRE(got.inexact == (sticky || x != l.values[i]));
              REQUIRE_FALSE(got.overflow);
              ++cases;
            }
          }
        }
      }
    }
  }
  cases.report(100000);
}

TEST_CASE("encode: values past the largest finite, each rounding and overflow mode", "[formats]") {
  CaseCount cases("overflow probes");
  for (FormatId id : all_formats()) {
    const FormatSpec& f = format_spec(id);
    if (f.bits > 16) continue;
    const test::Ladder l = test::positive_ladder(f);
    const mpq_class max = l.values.back();
    // The virtual neighbour above max (an unbounded exponent range) is max + ulp(max). Max's
    // predecessor shares its binade in every format with fraction bits; with none (UE8M0) the
    // predecessor is half of max and ulp(max) is max itself.
    const mpq_class ulp = f.fraction_bits == 0 ? max : mpq_class(max - l.values[l.values.size() - 2]);
    const bool max_even = (l.bits.back() & 1) == 0;
    struct Probe {
      mpq_class x;
      bool overflows_rne;
    };
    const Probe probes[] = {{max + ulp / 4, false},
                            {max + ulp / 2, !max_even},
                            {max + 3 * ulp / 4, true},
                            {max * 4, true}};
    for (const auto& p : probes) {
      for (bool negative : {false, true}) {
        if (negative && !f.is_signed) continue;
        for (Rounding r : kRoundings) {
          for (Overflow o : kOverflows) {
            const EncodeResult got = encode(f, exact_value_of(p.x, negative), r, o);
            const bool overflows = r == Rounding::NearestEven ? p.overflows_rne : true;
            INFO(f.name << " x=" << p.x.get_str() << (negative ? " negative" : ""));
            if (overflows) {
              REQUIRE(got.bits == overflow_bits(f, negative, r, o));
            } else {
              REQUIRE(got.bits == (l.bits.back() | (negative ? f.sign_mask() : 0)));
            }
            // Toward zero every probe above max is past the last representable value, so it
            // lands on max finite; the flag reports that the value exceeded the range.
            REQUIRE(got.inexact);
            ++cases;
          }
        }
      }
    }
  }
  cases.report(100);
}

TEST_CASE("encode: the published overflow points of E4M3 and E5M2", "[formats]") {
  const FormatSpec& e4 = format_spec(FormatId::E4M3);
  const FormatSpec& e5 = format_spec(FormatId::E5M2);
  auto enc = [](const FormatSpec& f, uint64_t v, Overflow o) {
    ExactValue x{FloatClass::Normal, false, v, 0};
    return encode(f, x, Rounding::NearestEven, o).bits;
  };
  CHECK(enc(e4, 464, Overflow::NoSat) == 0x7E);  // tie between 448 and (virtual) 480: even 448
  CHECK(enc(e4, 465, Overflow::NoSat) == 0x7F);  // OCP non-saturating: NaN
  CHECK(enc(e4, 465, Overflow::SatFinite) == 0x7E);
  CHECK(enc(e5, 61440, Overflow::NoSat) == 0x7C);  // tie 57344 / 65536: 57344 is odd, so Inf
  CHECK(enc(e5, 61439, Overflow::NoSat) == 0x7B);
  CHECK(enc(e5, 61440, Overflow::SatFinite) == 0x7B);
}

TEST_CASE("encode: NaN, infinity, zero and sign rules", "[formats]") {
  CaseCount cases("special encodings");
  for (FormatId id : all_formats()) {
    const FormatSpec& f = format_spec(id);
    for (bool negative : {false, true}) {
      const ExactValue nan{FloatClass::NaN, negative, 0, 0};
      const ExactValue inf{FloatClass::Infinity, negative, 0, 0};
      const ExactValue zero{FloatClass::Zero, negative, 0, 0};
      for (Rounding r : kRoundings) {
        for (Overflow o : kOverflows) {
          const EncodeResult n = encode(f, nan, r, o);
          if (f.nan_rule == NanRule::None) {
            CHECK(n.bits == 0x8);  // E2M1: ml_dtypes' float4_e2m1fn gives -0
            CHECK(n.invalid);
          } else {
            CHECK(classify(f, n.bits) == FloatClass::NaN);
          }
          const EncodeResult i = encode(f, inf, r, o);
          if (negative && !f.is_signed) {
            CHECK(classify(f, i.bits) == FloatClass::NaN);
            CHECK(i.invalid);
          } else {
            const uint64_t sign = negative ? f.sign_mask() : 0;
            const uint64_t expect =
                o == Overflow::SatFinite ? sign | f.max_finite_encoding()
                : f.has_infinity          ? sign | (uint64_t{f.exponent_field_max()} << f.fraction_bits)
                : f.nan_rule != NanRule::None ? sign | f.canonical_nan()
                                              : sign | f.max_finite_encoding();
            CHECK(i.bits == expect);
          }
          const EncodeResult z = encode(f, zero, r, o);
          if (!f.has_subnormals) {
            CHECK(z.invalid);  // UE8M0 has no zero
          } else {
            CHECK(z.bits == (negative && f.is_signed ? f.sign_mask() : 0));
          }
          cases += 3;
        }
      }
    }
  }
  cases.report(9 * 2 * 4 * 3);
}

TEST_CASE("encode: every finite encoding of the small formats round-trips", "[formats]") {
  CaseCount cases("round trips");
  for (FormatId id : all_formats()) {
    const FormatSpec& f = format_spec(id);
    if (f.bits > 16) continue;
    for (uint64_t b = 0; b < (uint64_t{1} << f.bits); ++b) {
      if (f.sign_bit_ignored && (b & f.sign_mask())) continue;  // not a canonical encoding
      const ExactValue v = decode(f, b);
      if (!v.is_finite()) continue;
      for (Rounding r : kRoundings) {
        const EncodeResult e = encode(f, v, r, Overflow::NoSat);
        INFO(f.name << " 0x" << std::hex << b);
        REQUIRE(e.bits == b);
        REQUIRE_FALSE(e.inexact);
        ++cases;
      }
    }
  }
  cases.report(2 * (15 + 3 * 250 + 128 + 2 * 63000));
}
