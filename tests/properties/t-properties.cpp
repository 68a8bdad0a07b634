// RapidCheck properties. Each prints its seed, how many cases passed and how they were classified
// (RC_CLASSIFY). RC_PARAMS sets the seed and the number of cases, e.g.
//   RC_PARAMS="seed=42 max_success=10000" build/tests/test_properties
// (docs/testing.md). Failures print a `reproduce=` string to replay the shrunk case.
#include <rapidcheck/catch.h>

#include <bit>
#include <cmath>

#include "exact/exact_gemm.hpp"
#include "formats/decode.hpp"
#include "formats/encode.hpp"
#include "generators.hpp"
#include "io/npy.hpp"
#include "mma/execute.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/int8_on_fp4.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "schemes/common/base13.hpp"

using namespace ozref;

TEST_CASE("property: every finite encoding round-trips through decode and encode", "[properties]") {
  for (FormatId id : all_formats()) {
    const FormatSpec& f = format_spec(id);
    rc::prop(std::string("round trip ") + std::string(f.name), [&f] {
      const test::Encoding e = *test::gen_encoding(f);
      RC_CLASSIFY(true, test::class_name(e.drawn));
      const ExactValue v = decode(f, e.bits);
      RC_ASSERT(classify(f, e.bits) == v.cls);
      if (!v.is_finite()) return;
      RC_ASSERT(encode(f, v, Rounding::NearestEven, Overflow::NoSat).bits == e.bits);
      RC_ASSERT(encode(f, v, Rounding::TowardZero, Overflow::SatFinite).bits == e.bits);
    }, true);
  }
}

TEST_CASE("property: integer MMA equals exact wraparound and saturation", "[properties]") {
  rc::prop("int8 mma", [] {
    const auto& instrs = mma::arch("sm_90").instructions;
    std::vector<const mma::InstructionSpec*> ints;
    for (const auto& s : instrs)
      if (s.kind == mma::Kind::Integer) ints.push_back(&s);
    const auto& spec = **rc::gen::elementOf(ints);
    const auto a = *rc::gen::container<std::vector<uint8_t>>(32, rc::gen::arbitrary<uint8_t>());
    const auto b = *rc::gen::container<std::vector<uint8_t>>(32, rc::gen::arbitrary<uint8_t>());
    // C anywhere, or within 2^14 of either int32 limit, where the sum can leave the range.
    const uint32_t near = *rc::gen::inRange<uint32_t>(0, 1u << 14);
    const uint32_t c = *rc::gen::element(*rc::gen::arbitrary<uint32_t>(), 0x7FFFFFFFu - near, 0x80000000u + near);
    int64_t exact = int32_t(c);
    for (int k = 0; k < 32; ++k)
      exact += (spec.a_signed ? int64_t(int8_t(a[k])) : a[k]) * (spec.b_signed ? int64_t(int8_t(b[k])) : b[k]);
    const bool overflow = exact > INT32_MAX || exact < INT32_MIN;
    RC_CLASSIFY(overflow, "overflows int32");
    RC_CLASSIFY(spec.saturate, "satfinite");
    const int64_t want = spec.saturate ? std::clamp<int64_t>(exact, INT32_MIN, INT32_MAX) : int64_t(int32_t(uint32_t(uint64_t(exact))));
    RC_ASSERT(int64_t(int32_t(mma::execute(spec, {a, b, c, {}, {}}))) == want);
  }, true);
}

TEST_CASE("property: CRT reconstructs x from its residues, every variant", "[properties]") {
  rc::prop("crt round trip", [] {
    const size_t n = *rc::gen::inRange<size_t>(2, 21);
    const std::vector<int64_t> moduli(schemes::int8_moduli().begin(), schemes::int8_moduli().begin() + long(n));
    const schemes::Crt crt(moduli);
    // x uniform-ish in (-P/4, P/4): the range the schemes use.
    mpz_class x = 0;
    for (int i = 0; i < 4; ++i) x = (x << 64) + mpz_class(std::to_string(*rc::gen::arbitrary<uint64_t>()));
    x %= crt.product() / 2;
    if (*rc::gen::arbitrary<bool>()) x = -x;
    x /= 2;
    RC_CLASSIFY(n <= 6, "up to 6 moduli");
    RC_CLASSIFY(n > 14, "more than 14 moduli");
    std::vector<int32_t> r(n);
    for (size_t t = 0; t < n; ++t) {
      r[t] = schemes::balanced_residue(mpz_fdiv_ui(x.get_mpz_t(), static_cast<unsigned long>(moduli[t])), moduli[t]);
      RC_ASSERT(r[t] >= -(moduli[t] / 2));
      RC_ASSERT(r[t] <= (moduli[t] - 1) / 2);
    }
    RC_ASSERT(crt.exact(r.data()) == x);
    RC_ASSERT(crt.garner(r.data()) == x);
  }, true);
}

TEST_CASE("property: the Barrett reduction gives the balanced residue", "[properties]") {
  rc::prop("barrett", [] {
    const int64_t m = *rc::gen::elementOf(schemes::int8_moduli());
    const int32_t x = *rc::gen::arbitrary<int32_t>();
    RC_CLASSIFY(x < 0, "negative input");
    const int32_t r = schemes::BarrettReducer(m).reduce(x);
    RC_ASSERT(r == schemes::balanced_residue(x, m));
  }, true);
}

TEST_CASE("property: the exact GEMM's slice path equals its direct path", "[properties]") {
  rc::prop("exact gemm paths", [] {
    const size_t m = *rc::gen::inRange<size_t>(1, 5), k = *rc::gen::inRange<size_t>(1, 9), n = *rc::gen::inRange<size_t>(1, 5);
    const int spread = *rc::gen::inRange(0, 1100);
    RC_CLASSIFY(spread > 500, "exponent spread > 500");
    auto gen_value = rc::gen::map(rc::gen::tuple(rc::gen::arbitrary<int32_t>(), rc::gen::inRange(-spread, spread + 1)),
                                  [](const std::tuple<int32_t, int>& t) { return std::ldexp(double(std::get<0>(t)), std::get<1>(t)); });
    Matrix<double> a(m, k), b(k, n);
    a.data = *rc::gen::container<std::vector<double>>(m * k, gen_value);
    b.data = *rc::gen::container<std::vector<double>>(k * n, gen_value);
    const ExactProduct s = exact_gemm(a, b, {.threads = 1}), d = exact_gemm(a, b, {.threads = 1, .force_direct = true});
    for (size_t i = 0; i < s.nearest.size(); ++i) {
      RC_ASSERT(std::bit_cast<uint64_t>(s.nearest[i]) == std::bit_cast<uint64_t>(d.nearest[i]));
      RC_ASSERT(std::bit_cast<uint64_t>(s.residual[i]) == std::bit_cast<uint64_t>(d.residual[i]));
    }
  }, true);
}

TEST_CASE("property: .npy round trip for every dtype and shape", "[properties]") {
  rc::prop("npy round trip", [] {
    const DType t = *rc::gen::element(DType::F8, DType::F4, DType::I1, DType::U1, DType::I2, DType::U2, DType::I4, DType::U4, DType::I8, DType::U8, DType::C16);
    const auto shape = *rc::gen::container<std::vector<size_t>>(*rc::gen::inRange<size_t>(0, 4), rc::gen::inRange<size_t>(0, 6));
    NpyArray a;
    a.dtype = t;
    a.shape = shape;
    a.data = *rc::gen::container<std::vector<uint8_t>>(a.elements() * dtype_size(t), rc::gen::arbitrary<uint8_t>());
    RC_CLASSIFY(a.elements() == 0, "empty");
    const NpyArray b = parse_npy(serialize_npy(a), "property");
    RC_ASSERT(b.dtype == a.dtype);
    RC_ASSERT(b.shape == a.shape);
    RC_ASSERT(b.data == a.data);
  }, true);
}

TEST_CASE("property: every Ozaki-II variant is exact on small integer inputs", "[properties]") {
  rc::prop("ozaki2 integers", [] {
    const size_t m = *rc::gen::inRange<size_t>(1, 4), k = *rc::gen::inRange<size_t>(1, 40), n = *rc::gen::inRange<size_t>(1, 4);
    const int range = *rc::gen::inRange(1, 1 << 16);
    auto gen_int = rc::gen::map(rc::gen::inRange(-range, range + 1), [](int v) { return double(v); });
    Matrix<double> a(m, k), b(k, n);
    a.data = *rc::gen::container<std::vector<double>>(m * k, gen_int);
    b.data = *rc::gen::container<std::vector<double>>(k * n, gen_int);
    schemes::Ozaki2Options o;
    o.variant = *rc::gen::element(schemes::Ozaki2Variant::Int8, schemes::Ozaki2Variant::Fp8, schemes::Ozaki2Variant::Fp4);
    // 87 to 94 bits: K * 2^32 stays far below P/4, so truncation drops nothing
    o.moduli = o.variant == schemes::Ozaki2Variant::Int8 ? 12 : o.variant == schemes::Ozaki2Variant::Fp8 ? 10 : 14;
    o.verify = schemes::Verify::Full;
    o.mode = *rc::gen::element(schemes::ScalingMode::Fast, schemes::ScalingMode::Accurate);
    RC_CLASSIFY(true, schemes::ozaki2_family(o.variant).scheme);
    RC_CLASSIFY(o.mode == schemes::ScalingMode::Fast, "fast scaling");
    const schemes::SchemeResult r = schemes::run_ozaki2(a, b, o, nullptr);
    RC_ASSERT(r.exact);
    RC_ASSERT(r.accuracy.bit_identical == r.accuracy.elements);
  }, true);
}

TEST_CASE("property: base-13 digits of every integer in [-X_p, X_p] lie in S and add back", "[properties]") {
  rc::prop("base-13 digits", [] {
    const int p = *rc::gen::inRange(1, 13);
    const int64_t range = schemes::base13_range(p);
    const int64_t x = *rc::gen::inRange<int64_t>(-range, range + 1);
    RC_CLASSIFY(true, "p = " + std::to_string(p));
    RC_CLASSIFY(x == range || x == -range, "edge of the range");
    int8_t d[12];
    RC_ASSERT(schemes::to_base13(x, p, d));
    int64_t back = 0;
    for (int i = p - 1; i >= 0; --i) {
      RC_ASSERT(schemes::in_digit_set(d[i]));
      back = back * 13 + d[i];
    }
    RC_ASSERT(back == x);
  }, true);
}

TEST_CASE("property: int8-on-fp4 reproduces INT8 GEMMs bit for bit", "[properties]") {
  rc::prop("int8-on-fp4", [] {
    const size_t m = *rc::gen::inRange<size_t>(1, 4), k = *rc::gen::inRange<size_t>(1, 70), n = *rc::gen::inRange<size_t>(1, 4);
    auto gen_int8 = rc::gen::map(rc::gen::weightedOneOf<int>({{1, rc::gen::element(-128, 127)}, {4, rc::gen::inRange(-128, 128)}}),
                                 [](int v) { return double(v); });
    Matrix<double> a(m, k), b(k, n);
    a.data = *rc::gen::container<std::vector<double>>(m * k, gen_int8);
    b.data = *rc::gen::container<std::vector<double>>(k * n, gen_int8);
    schemes::Int8OnFp4Options o;
    o.arch = *rc::gen::element<std::string>("ideal", "sm_100", "sm_120");
    RC_CLASSIFY(true, o.arch);
    const schemes::SchemeResult r = schemes::run_int8_on_fp4(a, b, o, nullptr);
    RC_ASSERT(r.exact);
    RC_ASSERT(r.accuracy.bit_identical == r.accuracy.elements);
  }, true);
}
