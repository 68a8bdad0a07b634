// The CUDA operations of gemmul8@2.0.14's model (reference/schemes/gemmul8/cuda_math.hpp) against
// exact rationals: each directed rounding must be the nearest value on its side of the exact
// result (the definition), over random operands spread across the exponent range, subnormals,
// zeros and cancellations; log2_nearest against a 200-bit logarithm.
#include <gmpxx.h>

#include <bit>
#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>

#include "common/rng.hpp"
#include "schemes/gemmul8/cuda_math.hpp"
#include "schemes/gemmul8/log2_model.hpp"
#include "schemes/gemmul8/shifts.hpp"
#include "support.hpp"

using namespace ozref::schemes::gemmul8;

namespace {

// A double or float from random bits: any finite value, weighted toward the ranges the model meets.
template <typename T>
T random_value(ozref::Rng& r) {
  for (;;) {
    T x;
    if constexpr (sizeof(T) == 8) {
      const uint64_t bits = r.next();
      x = r.next() % 4 == 0 ? std::bit_cast<double>(bits) : std::ldexp(std::bit_cast<double>((bits & 0x800FFFFFFFFFFFFFull) | 0x3FF0000000000000ull), int(r.next() % 120) - 60);
    } else {
      const uint32_t bits = static_cast<uint32_t>(r.next());
      x = r.next() % 4 == 0 ? std::bit_cast<float>(bits) : std::ldexp(std::bit_cast<float>((bits & 0x807FFFFFu) | 0x3F800000u), int(r.next() % 40) - 20);
    }
    if (std::isfinite(x)) return x;
  }
}

// `got` is the rounding of `exact` toward +inf (up) or -inf (down) in T.
template <typename T>
bool rounded(const mpq_class& exact, T got, bool up) {
  if (std::isinf(got)) {  // only past the largest finite value
    const T max = std::numeric_limits<T>::max();
    return up ? got > 0 && exact > mpq_class(static_cast<double>(max)) : got < 0 && exact < mpq_class(-static_cast<double>(max));
  }
  const mpq_class g(static_cast<double>(got));
  const T other = std::nextafter(got, up ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity());
  if (up) return g >= exact && (std::isinf(other) || mpq_class(static_cast<double>(other)) < exact);
  return g <= exact && (std::isinf(other) || mpq_class(static_cast<double>(other)) > exact);
}

}  // namespace

TEST_CASE("gemmul8 directed roundings equal exact rationals rounded") {
  ozref::Rng r(ozref::test::seed());
  ozref::test::CaseCount cases("directed roundings");
  for (int i = 0; i < 20000 * int(ozref::test::level()); ++i) {
    const double a = random_value<double>(r), b = random_value<double>(r);
    const double c = i % 7 == 0 && std::isfinite(a * b) ? -a * b : random_value<double>(r);  // cancellations
    const mpq_class qa(a), qb(b), qc(c);
    INFO(std::hexfloat << a << " " << b << " " << c);
    REQUIRE(rounded(qa * qb + qc, fma_ru(a, b, c), true));
    REQUIRE(rounded(qa + qc, dadd_ru(a, c), true));
    REQUIRE(rounded(qa, double2float_ru(a), true));
    const float x = random_value<float>(r), y = random_value<float>(r);
    const float z = i % 5 == 0 && std::isfinite(x * y) ? -x * y : random_value<float>(r);
    const mpq_class qx(x), qy(y), qz(z);
    INFO(std::hexfloat << x << " " << y << " " << z);
    REQUIRE(rounded(qx + qz, fadd_ru(x, z), true));
    REQUIRE(rounded(qx * qy, fmul_ru(x, y), true));
    REQUIRE(rounded(qx - qz, fsub_rd(x, z), false));
    REQUIRE(rounded(qx * qy + qz, fmaf_rd(x, y, z), false));
    ++cases;
  }
  cases.report(20000);
}

TEST_CASE("gemmul8 directed roundings of zeros, signs and conversions") {
  CHECK(std::signbit(fsub_rd(1.0f, 1.0f)));   // an exact zero rounding down is -0
  CHECK(!std::signbit(fadd_ru(1.0f, -1.0f)));  // and +0 rounding up
  CHECK(std::signbit(fadd_ru(-0.0f, -0.0f)));
  CHECK(fma_ru(0x1p-600, 0x1p-600, 0.0) == 0x1p-1074);  // a tiny positive product rounds up to the least subnormal
  CHECK(dadd_ru(1.0, 0x1p-200) == std::nextafter(1.0, 2.0));
  CHECK(fmul_ru(std::numeric_limits<float>::max(), 2.0f) == INFINITY);
  CHECK(float2int_rd(-0.5f) == -1);
  CHECK(float2int_rd(0x1p31f) == INT32_MAX);
  CHECK(float2int_rd(-0x1p40f) == INT32_MIN);
  CHECK(float2int_rd(NAN) == 0);
  CHECK(float2int_rd(INFINITY) == INT32_MAX);
  CHECK(ilogb_or_zero(0.0) == 0);
  CHECK(ilogb_or_zero(0x1p-1074) == -1074);
  CHECK(ilogbf_or_zero(0x1p-149f) == -149);
  CHECK(to_int16(-32769) == 32767);
  CHECK(wrap_add(INT32_MAX, 5) == INT32_MIN + 4);
}

TEST_CASE("gemmul8 log2_nearest is the correctly rounded log2") {
  using big = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<160, boost::multiprecision::digit_base_2>>;
  ozref::Rng r(ozref::test::seed() + 1);
  ozref::test::CaseCount cases("log2 arguments");
  for (int i = 0; i < 3000; ++i) {
    const uint32_t bits = i < 1000 ? 0x3F800000u + static_cast<uint32_t>(r.next() % 0x800001u) : 1 + static_cast<uint32_t>(r.next() % 0x7F7FFFFFu);
    const float x = std::bit_cast<float>(bits);
    const big exact = boost::multiprecision::log(big(x)) / boost::multiprecision::log(big(2));
    INFO(std::hexfloat << x);
    REQUIRE(log2_nearest(x) == static_cast<float>(exact));
    float low, high;
    log2_window(x, low, high);
    REQUIRE(low < log2_nearest(x));
    REQUIRE(high > log2_nearest(x));
    ++cases;
  }
  CHECK(log2_nearest(1.0f) == 0.0f);
  CHECK(log2_nearest(0x1p-149f) == -149.0f);
  CHECK(log2_nearest(0.0f) == -INFINITY);
  cases.report(3000);
}

TEST_CASE("gemmul8 lg2 recordings: parsed, and refused with the line when malformed") {
  const Lg2Recording r = parse_lg2_recording("# comment\nfast 14 3 3fb504f3 50 51\naccurate 20 4b000000 60 61\n", "t.txt");
  CHECK(r.fast.at({14, 3, 0x3fb504f3u}).h200 == 50);
  CHECK(r.fast.at({14, 3, 0x3fb504f3u}).model == 51);
  CHECK(r.accurate.at({20, 0x4b000000u}).h200 == 60);
  CHECK_THROWS_WITH(parse_lg2_recording("fast 14 3 zz 50 51\n", "t.txt"), Catch::Contains("t.txt:1"));
  CHECK_THROWS_WITH(parse_lg2_recording("# ok\naccurate 21 4b000000 60 61\n", "t.txt"), Catch::Contains("t.txt:2"));
  CHECK_THROWS_WITH(parse_lg2_recording("slow 14 3 3fb504f3 50 51\n", "t.txt"), Catch::Contains("t.txt:1"));
}

TEST_CASE("gemmul8 lg2 recordings replace the model's floor, and one that disagrees with it is refused") {
  // Accurate mode, 20 moduli, M = 2^23: the model's floor from RN(log2 M) = 23 exactly.
  const float log2p = table_log2p(20);
  const int32_t model = accurate_floor(23.0f, log2p);
  const std::string line = "accurate 20 4b000000 " + std::to_string(model - 1) + " ";
  const Lg2Recording good = parse_lg2_recording(line + std::to_string(model) + "\n", "good.txt");
  const LineShift s = accurate_line_shift(0, 1 << 23, 20, log2p, good);
  CHECK(s.recorded);
  CHECK(s.shift == model - 1);  // the recorded H200 floor, not the model's
  CHECK(accurate_line_shift(0, 1 << 23, 20, log2p, Lg2Recording{}).shift == model);
  const Lg2Recording bad = parse_lg2_recording(line + std::to_string(model + 1) + "\n", "bad.txt");
  CHECK_THROWS_WITH(accurate_line_shift(0, 1 << 23, 20, log2p, bad), Catch::Contains("bad.txt") && Catch::Contains("disagree"));
}
