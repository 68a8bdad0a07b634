// FP32 and FP64: TestFloat-style boundary tables (significand patterns x exponent classes) and
// random encodings; decode against mpq_set_d and fpclassify, FP64 -> FP32 and FP32 -> FP16
// conversion against the host's IEEE conversions and the GMP oracle, and the wide encode used by
// the exact GEMM (64-bit significand plus sticky bits) against the oracle.
#include <gmpxx.h>

#include <bit>
#include <cmath>

#include "common/rng.hpp"
#include "exact/rational_oracle.hpp"
#include "formats/decode.hpp"
#include "formats/encode.hpp"
#include "formats/field_formula.hpp"
#include "formats/host_fp16.hpp"
#include "support.hpp"

using namespace ozref;
using ozref::test::CaseCount;

namespace {

mpq_class host_exact(double x) {
  mpq_class q;
  mpq_set_d(q.get_mpq_t(), x);
  return q;
}

mpq_class exact_of(const ExactValue& v) {
  mpq_class q = mpq_class(mpz_class(std::to_string(v.significand))) * test::power_of_two(v.exponent);
  return v.negative ? mpq_class(-q) : q;
}

// TestFloat-style encodings of a format: significand patterns crossed with exponent classes.
std::vector<uint64_t> boundary_encodings(const FormatSpec& f) {
  const uint64_t fm = f.fraction_mask();
  const int m = f.fraction_bits;
  const uint64_t patterns[] = {0,  1,  2,  3, fm, fm - 1, uint64_t{1} << (m - 1),
                               (uint64_t{1} << (m - 1)) | 1, fm >> 1, 0x5555555555555555ULL & fm,
                               0xAAAAAAAAAAAAAAAAULL & fm, fm ^ (fm >> (m / 2)), fm >> (m / 2)};
  const uint64_t emax = f.exponent_field_max();
  const uint64_t bias = static_cast<uint64_t>(f.bias);
  const uint64_t exps[] = {0, 1, 2, bias - 2, bias - 1, bias, bias + 1, emax - 2, emax - 1, emax};
  std::vector<uint64_t> out;
  for (uint64_t e : exps)
    for (uint64_t p : patterns)
      for (uint64_t s : {uint64_t{0}, f.sign_mask()}) out.push_back(s | (e << m) | p);
  return out;
}

void check_decode(const FormatSpec& f, uint64_t b) {
  const double host = f.bits == 64 ? std::bit_cast<double>(b)
                                   : static_cast<double>(std::bit_cast<float>(static_cast<uint32_t>(b)));
  const ExactValue v = decode(f, b);
  INFO(f.name << " 0x" << std::hex << b);
  if (std::isnan(host)) {
    REQUIRE(v.cls == FloatClass::NaN);
    return;
  }
  if (std::isinf(host)) {
    REQUIRE(v.cls == FloatClass::Infinity);
    REQUIRE(v.negative == std::signbit(host));
    return;
  }
  REQUIRE(exact_of(v) == host_exact(host));
  REQUIRE(v.negative == std::signbit(host));
  const int c = f.bits == 64 ? std::fpclassify(std::bit_cast<double>(b))
                             : std::fpclassify(std::bit_cast<float>(static_cast<uint32_t>(b)));
  REQUIRE(v.cls == (c == FP_ZERO ? FloatClass::Zero : c == FP_SUBNORMAL ? FloatClass::Subnormal : FloatClass::Normal));
  REQUIRE(encode(f, v, Rounding::NearestEven, Overflow::NoSat).bits == b);
}

// FP64 -> FP32 by ozref against the host cast (RNE) and the GMP oracle (RNE and RZ).
void check_narrowing(uint64_t b) {
  const double x = std::bit_cast<double>(b);
  const FormatSpec& f64 = format_spec(FormatId::FP64);
  const FormatSpec& f32 = format_spec(FormatId::FP32);
  const EncodeResult rne = convert(f64, b, f32, Rounding::NearestEven, Overflow::NoSat);
  const EncodeResult rz = convert(f64, b, f32, Rounding::TowardZero, Overflow::NoSat);
  INFO("fp64 0x" << std::hex << b);
  const float host = static_cast<float>(x);
  if (std::isnan(x)) {
    REQUIRE(std::isnan(std::bit_cast<float>(static_cast<uint32_t>(rne.bits))));
    return;
  }
  REQUIRE(rne.bits == std::bit_cast<uint32_t>(host));
  if (std::isinf(x)) return;
  const oracle::Rounded o = oracle::round(host_exact(x), oracle::binary32(), false);
  const float expect_rz = o.overflow ? std::copysign(std::numeric_limits<float>::max(), static_cast<float>(x))
                                     : static_cast<float>(o.value.get_d());
  const uint32_t expect_bits = (expect_rz == 0 && std::signbit(x)) ? 0x80000000u : std::bit_cast<uint32_t>(expect_rz);
  REQUIRE(rz.bits == expect_bits);
}

}  // namespace

TEST_CASE("fp32 and fp64: boundary tables decode, round-trip and narrow correctly", "[formats]") {
  CaseCount cases("boundary encodings");
  for (FormatId id : {FormatId::FP32, FormatId::FP64}) {
    const FormatSpec& f = format_spec(id);
    for (uint64_t b : boundary_encodings(f)) {
      check_decode(f, b);
      if (id == FormatId::FP64) check_narrowing(b);
      ++cases;
    }
  }
  cases.report(2 * 10 * 13 * 2);
}

TEST_CASE("fp32 and fp64: random encodings", "[formats]") {
  Rng rng(test::seed());
  CaseCount cases("random fp32/fp64 encodings");
  const uint64_t n = 200000 * test::level();
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t r = rng.next();
    check_decode(format_spec(FormatId::FP64), r);
    check_decode(format_spec(FormatId::FP32), r & 0xFFFFFFFFu);
    check_narrowing(r);
    // Exponents near FP32's range, where narrowing rounds, subnormalises and overflows.
    const uint64_t near = (r & 0x800FFFFFFFFFFFFFULL) | ((uint64_t{1023 - 160} + rng.below(320)) << 52);
    check_narrowing(near);
    ++cases;
  }
  cases.report(n);
}

TEST_CASE("fp32 -> fp16 conversion matches the host's F16C conversion", "[formats]") {
  REQUIRE(test::host_has_f16c());
  Rng rng(test::seed() + 1);
  CaseCount cases("fp32 -> fp16 conversions");
  const uint64_t n = 200000 * test::level();
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t b = static_cast<uint32_t>(rng.next());
    if (i % 2) b = (b & 0x807FFFFFu) | static_cast<uint32_t>((127 - 30 + rng.below(50)) << 23);
    const float x = std::bit_cast<float>(b);
    const uint16_t h = test::host_float_to_fp16(x);
    const EncodeResult r = convert(format_spec(FormatId::FP32), b, format_spec(FormatId::FP16),
                                   Rounding::NearestEven, Overflow::NoSat);
    INFO("fp32 0x" << std::hex << b);
    if (std::isnan(x)) {
      REQUIRE(classify(format_spec(FormatId::FP16), r.bits) == FloatClass::NaN);
    } else {
      REQUIRE(r.bits == h);
    }
    ++cases;
  }
  cases.report(n);
}

TEST_CASE("encode: 64-bit significands with sticky bits round to FP64 as the oracle says", "[formats]") {
  Rng rng(test::seed() + 2);
  CaseCount cases("wide encodes");
  const uint64_t n = 100000 * test::level();
  const FormatSpec& f64 = format_spec(FormatId::FP64);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t sig = rng.next() >> rng.below(40);
    if (sig == 0) continue;
    const int exp = static_cast<int>(rng.below(2300)) - 1200;  // subnormal, normal and overflow
    const bool sticky = rng.below(2);
    const bool negative = rng.below(2);
    if (sticky && std::bit_width(sig) < 56) continue;  // the precondition: sticky below rounding
    mpq_class x = mpq_class(mpz_class(std::to_string(sig))) * test::power_of_two(exp);
    if (sticky) x += test::power_of_two(exp - 3);
    if (negative) x = -x;
    for (bool rne : {true, false}) {
      const EncodeResult r = encode(f64, {FloatClass::Normal, negative, sig, exp},
                                    rne ? Rounding::NearestEven : Rounding::TowardZero, Overflow::NoSat, sticky);
      const oracle::Rounded o = oracle::round(x, oracle::binary64(), rne);
      INFO("sig 0x" << std::hex << sig << std::dec << " exp " << exp << " sticky " << sticky);
      if (o.overflow) {
        const double expect = rne ? HUGE_VAL : std::numeric_limits<double>::max();
        REQUIRE(r.bits == std::bit_cast<uint64_t>(negative ? -expect : expect));
        REQUIRE(r.overflow);
      } else {
        const double v = o.value.get_d();
        const uint64_t expect = std::bit_cast<uint64_t>(v == 0 && negative ? -0.0 : v);
        REQUIRE(r.bits == expect);
      }
      ++cases;
    }
  }
  cases.report(n / 2);
}
