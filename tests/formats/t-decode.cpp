// Decoding: every encoding of every format of 16 bits or fewer against the field formula on GMP
// rationals, FP16 and BF16 also against the host's own conversions, and published anchor values.
#include <gmpxx.h>

#include <bit>
#include <cmath>

#include "formats/decode.hpp"
#include "formats/field_formula.hpp"
#include "formats/host_fp16.hpp"
#include "support.hpp"

using namespace ozref;
using ozref::test::CaseCount;

namespace {

mpq_class exact_of(const ExactValue& v) {
  mpq_class q = mpq_class(mpz_class(std::to_string(v.significand))) * test::power_of_two(v.exponent);
  return v.negative ? mpq_class(-q) : q;
}

mpq_class host_exact(double x) {
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), x);
  return q;
}

}  // namespace

TEST_CASE("decode: published anchor values", "[formats]") {
  struct Anchor {
    FormatId id;
    uint64_t bits;
    double value;  // NAN for NaN, INFINITY for infinity
  };
  // OCP OFP8 rev 1.0 tables (E4M3 max 448 = 0x7E, min subnormal 2^-9; E5M2 max 57344 = 0x7B,
  // infinity 0x7C); OCP MX v1.0 (E2M1 values 0..6; E8M0 0x7F = 1, 0x00 = 2^-127, 0xFF NaN);
  // IEEE 754 (FP16 max 65504 = 0x7BFF, min subnormal 2^-24); BF16 0x3F80 = 1.
  const Anchor anchors[] = {
      {FormatId::E4M3, 0x7E, 448.0},       {FormatId::E4M3, 0x7F, NAN},
      {FormatId::E4M3, 0xFF, NAN},         {FormatId::E4M3, 0x01, 0x1p-9},
      {FormatId::E4M3, 0x08, 0x1p-6},      {FormatId::E4M3, 0x38, 1.0},
      {FormatId::E4M3, 0xF8, -256.0},      {FormatId::E4M3, 0x78, 256.0},
      {FormatId::E5M2, 0x7B, 57344.0},     {FormatId::E5M2, 0x7C, INFINITY},
      {FormatId::E5M2, 0x7D, NAN},         {FormatId::E5M2, 0x01, 0x1p-16},
      {FormatId::E5M2, 0x3C, 1.0},         {FormatId::E2M1, 0x1, 0.5},
      {FormatId::E2M1, 0x2, 1.0},          {FormatId::E2M1, 0x3, 1.5},
      {FormatId::E2M1, 0x4, 2.0},          {FormatId::E2M1, 0x5, 3.0},
      {FormatId::E2M1, 0x6, 4.0},          {FormatId::E2M1, 0x7, 6.0},
      {FormatId::E2M1, 0xF, -6.0},         {FormatId::UE8M0, 0x7F, 1.0},
      {FormatId::UE8M0, 0x00, 0x1p-127},   {FormatId::UE8M0, 0xFE, 0x1p127},
      {FormatId::UE8M0, 0xFF, NAN},        {FormatId::UE4M3, 0x7E, 448.0},
      {FormatId::UE4M3, 0x7F, NAN},        {FormatId::UE4M3, 0x08, 0x1p-6},
      {FormatId::FP16, 0x7BFF, 65504.0},   {FormatId::FP16, 0x0001, 0x1p-24},
      {FormatId::FP16, 0x7C00, INFINITY},  {FormatId::FP16, 0x3C00, 1.0},
      {FormatId::BF16, 0x3F80, 1.0},       {FormatId::BF16, 0x7F80, INFINITY},
      {FormatId::FP32, 0x3F800000, 1.0},   {FormatId::FP32, 0x00000001, 0x1p-149},
      {FormatId::FP64, 0x3FF0000000000000, 1.0},
      {FormatId::FP64, 0x0000000000000001, 0x1p-1074},
  };
  CaseCount cases("anchors");
  for (const auto& a : anchors) {
    const FormatSpec& f = format_spec(a.id);
    const ExactValue v = decode(f, a.bits);
    INFO(f.name << " 0x" << std::hex << a.bits);
    if (std::isnan(a.value)) {
      CHECK(v.cls == FloatClass::NaN);
    } else if (std::isinf(a.value)) {
      CHECK(v.cls == FloatClass::Infinity);
    } else {
      CHECK(exact_of(v) == host_exact(a.value));
    }
    ++cases;
  }
  cases.report(30);
}

TEST_CASE("decode: every encoding of every format up to 16 bits matches the field formula", "[formats]") {
  CaseCount cases("encodings decoded");
  for (FormatId id : all_formats()) {
    const FormatSpec& f = format_spec(id);
    if (f.bits > 16) continue;
    for (uint64_t b = 0; b < (uint64_t{1} << f.bits); ++b) {
      const test::FormulaValue expect = test::formula_value(f, b);
      const ExactValue got = decode(f, b);
      INFO(f.name << " 0x" << std::hex << b);
      switch (expect.kind) {
        case test::Kind::NaN: REQUIRE(got.cls == FloatClass::NaN); break;
        case test::Kind::Inf:
          REQUIRE(got.cls == FloatClass::Infinity);
          REQUIRE(got.negative == expect.negative);
          break;
        case test::Kind::Finite:
          REQUIRE(got.is_finite());
          REQUIRE(exact_of(got) == expect.value);
          REQUIRE(got.negative == expect.negative);
          REQUIRE((got.cls == FloatClass::Zero) == (expect.value == 0));
          REQUIRE(classify(f, b) == got.cls);
          break;
      }
      ++cases;
    }
  }
  // E2M1, four 8-bit formats, FP16 and BF16.
  cases.report(16 + 4 * 256 + 2 * 65536);
}

TEST_CASE("decode: FP16 and BF16 agree with the host's own conversions, exhaustively", "[formats]") {
  CaseCount cases("fp16 and bf16 encodings");
  REQUIRE(test::host_has_f16c());
  for (uint32_t b = 0; b < 65536; ++b) {
    const float h = test::host_fp16_to_float(static_cast<uint16_t>(b));
    const float bf = std::bit_cast<float>(b << 16);
    for (const auto& [id, host] : {std::pair{FormatId::FP16, static_cast<double>(h)},
                                   std::pair{FormatId::BF16, static_cast<double>(bf)}}) {
      const ExactValue v = decode(format_spec(id), b);
      INFO(format_spec(id).name << " 0x" << std::hex << b);
      if (std::isnan(host)) {
        REQUIRE(v.cls == FloatClass::NaN);
      } else if (std::isinf(host)) {
        REQUIRE(v.cls == FloatClass::Infinity);
        REQUIRE(v.negative == std::signbit(host));
      } else {
        REQUIRE(exact_of(v) == host_exact(host));
        REQUIRE(v.negative == std::signbit(host));
        // The smallest normal is 2^-14 (FP16) or 2^-126 (BF16, like FP32).
        const double min_normal = id == FormatId::FP16 ? 0x1p-14 : 0x1p-126;
        const FloatClass expect = host == 0                          ? FloatClass::Zero
                                  : std::fabs(host) < min_normal ? FloatClass::Subnormal
                                                                 : FloatClass::Normal;
        REQUIRE(v.cls == expect);
      }
      ++cases;
    }
  }
  cases.report(2 * 65536);
}

TEST_CASE("decode: UE4M3's top bit is dropped, as PTX's unsigned scale does", "[formats]") {
  const FormatSpec& f = format_spec(FormatId::UE4M3);
  for (uint64_t b = 0; b < 128; ++b) {
    const ExactValue low = decode(f, b), high = decode(f, b | 0x80);
    REQUIRE(low.cls == high.cls);
    REQUIRE_FALSE(high.negative);
    REQUIRE(low.significand == high.significand);
    REQUIRE(low.exponent == high.exponent);
  }
  CHECK(decode(f, 0xFF).cls == FloatClass::NaN);
  CHECK(exact_of(decode(f, 0xFE)) == 448);
}
