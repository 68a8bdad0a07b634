// RapidCheck properties. Each prints its seed, how many cases passed and how they were classified
// (RC_CLASSIFY). RC_PARAMS sets the seed and the number of cases, e.g.
//   RC_PARAMS="seed=42 max_success=10000" build/tests/test_properties
// (docs/testing.md). Failures print a `reproduce=` string to replay the shrunk case.
#include <rapidcheck/catch.h>

#include <bit>
#include <cmath>

#include "common/distributions.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/rational_oracle.hpp"
#include "io/mma_trace.hpp"
#include "mma/gemm.hpp"
#include "schemes/ozaki1/scheme.hpp"
#include "formats/decode.hpp"
#include "formats/encode.hpp"
#include "generators.hpp"
#include "io/npy.hpp"
#include "mma/execute.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/int8_on_fp4/scheme.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "schemes/common/base13.hpp"
#include "schemes/common/crt_words.hpp"
#include "schemes/common/fp64_rounding.hpp"

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
    RC_CLASSIFY(crt.fits_int128(), "128-bit path");
    if (crt.fits_int128()) {
      RC_ASSERT(schemes::mpz_from_int128(crt.exact_int128(r.data())) == x);
      RC_ASSERT(schemes::mpz_from_int128(crt.garner_int128(r.data())) == x);
    }
  }, true);
}

TEST_CASE("property: residues of any balanced tuple give the same integer on the 128-bit and GMP paths", "[properties]") {
  rc::prop("crt int128 = gmp on arbitrary residues", [] {
    const size_t n = *rc::gen::inRange<size_t>(2, 17);  // P < 2^126
    const std::vector<int64_t> moduli(schemes::int8_moduli().begin(), schemes::int8_moduli().begin() + long(n));
    const schemes::Crt crt(moduli);
    RC_ASSERT(crt.fits_int128());
    std::vector<int32_t> r(n);
    for (size_t t = 0; t < n; ++t) r[t] = *rc::gen::inRange<int32_t>(int32_t(-(moduli[t] / 2)), int32_t((moduli[t] - 1) / 2 + 1));
    RC_ASSERT(schemes::mpz_from_int128(crt.exact_int128(r.data())) == crt.exact(r.data()));
    RC_ASSERT(schemes::mpz_from_int128(crt.garner_int128(r.data())) == crt.garner(r.data()));
    const int e = *rc::gen::inRange(-1100, 1000);
    const __int128 v = crt.garner_int128(r.data());
    RC_ASSERT(std::bit_cast<uint64_t>(schemes::nearest_double(v, e)) == std::bit_cast<uint64_t>(schemes::nearest_double(crt.garner(r.data()), e)));
  }, true);
}

TEST_CASE("property: a 128-bit integer times 2^e is rounded correctly, next to the subnormal and overflow thresholds", "[properties]") {
  rc::prop("nearest_double(int128, e) = the rational oracle's rounding", [] {
    const int bits = *rc::gen::inRange(1, 127);
    unsigned __int128 mag = (unsigned __int128)*rc::gen::arbitrary<uint64_t>() << 64 | *rc::gen::arbitrary<uint64_t>();
    mag = (mag >> (128 - bits)) | (unsigned __int128)1 << (bits - 1);  // exactly `bits` bits
    // The value's exponent next to the smallest normal (2^-1022) or below it among the
    // subnormals, next to the top of the range (2^1024), or anywhere.
    const int where = *rc::gen::inRange(0, 3), delta = where == 0 ? *rc::gen::inRange(-60, 4) : *rc::gen::inRange(-3, 4);
    const int e = where == 0 ? -1022 - bits + delta : where == 1 ? 1024 - bits + delta : *rc::gen::inRange(-1200, 1000);
    // Near-ties below the last bit the result keeps (52 + delta bits near the subnormals, else
    // 53): 0111..1 or 1000..01, where rounding to 53 bits first and to a subnormal after would
    // go wrong.
    const int kept = where == 0 ? 52 + delta : 53, tail = *rc::gen::inRange(0, 3), cut = bits - kept;
    if (cut >= 2 && tail) {
      const unsigned __int128 low = ((unsigned __int128)1 << cut) - 1;
      mag = tail == 1 ? (mag & ~low) | (low >> 1) : (mag & ~low) | ((unsigned __int128)1 << (cut - 1)) | 1;
    }
    RC_CLASSIFY(cut >= 2 && tail, "near-tie");
    const __int128 c = *rc::gen::arbitrary<bool>() ? -static_cast<__int128>(mag) : static_cast<__int128>(mag);
    RC_CLASSIFY(where == 0, "near 2^-1022");
    RC_CLASSIFY(where == 1, "near overflow");
    RC_ASSERT(schemes::is_correct_rounding(schemes::mpz_from_int128(c), e, schemes::nearest_double(c, e)));
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

TEST_CASE("property: the exact GEMM's modular path equals its direct path", "[properties]") {
  rc::prop("exact gemm paths", [] {
    const size_t m = *rc::gen::inRange<size_t>(1, 5), k = *rc::gen::inRange<size_t>(1, 9), n = *rc::gen::inRange<size_t>(1, 5);
    const int spread = *rc::gen::inRange(0, 1100);
    RC_CLASSIFY(spread > 500, "exponent spread > 500");
    auto gen_value = rc::gen::map(rc::gen::tuple(rc::gen::arbitrary<int32_t>(), rc::gen::inRange(-spread, spread + 1)),
                                  [](const std::tuple<int32_t, int>& t) { return std::ldexp(double(std::get<0>(t)), std::get<1>(t)); });
    Matrix<double> a(m, k), b(k, n);
    a.data = *rc::gen::container<std::vector<double>>(m * k, gen_value);
    b.data = *rc::gen::container<std::vector<double>>(k * n, gen_value);
    const ExactProduct s = exact_gemm(a, b, {.threads = 1, .method = ExactMethod::Modular}),
                       d = exact_gemm(a, b, {.threads = 1, .method = ExactMethod::Direct});
    for (size_t i = 0; i < s.nearest.size(); ++i) {
      RC_ASSERT(std::bit_cast<uint64_t>(s.nearest[i]) == std::bit_cast<uint64_t>(d.nearest[i]));
      RC_ASSERT(s.residual[i] == d.residual[i] && std::signbit(s.residual[i]) == std::signbit(d.residual[i]));
      RC_ASSERT(s.residual_exact[i] == d.residual_exact[i]);
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

TEST_CASE("property: FP MMA models equal the exact sum wherever the accumulator is exact, fast path equal to the chain", "[properties]") {
  // Operands: integers of at most 4 bits (E2M1: digits of S), so that every block sum and the
  // whole chain stay far inside every modelled accumulator's exact range (K <= 64: at most
  // 64 * 144 < 2^14). Oracle: the decoded values summed with GMP rationals.
  std::vector<const mma::InstructionSpec*> specs;
  for (const std::string& name : mma::arch_names())
    for (const mma::InstructionSpec& s : mma::arch(name).instructions)
      if (s.kind == mma::Kind::Float && (s.packing == mma::Packing::Byte || s.packing == mma::Packing::PaddedFp4) &&
          s.a_format != FormatId::E5M2)
        specs.push_back(&s);
  rc::prop("fp mma exact", [&specs] {
    const mma::InstructionSpec& s = **rc::gen::elementOf(specs);
    const FormatSpec& f = format_spec(s.a_format);
    const bool fp4 = s.packing == mma::Packing::PaddedFp4;
    // Encodings of small integer values: E4M3 |v| <= 12 (integers up to 16 are exact), E2M1 all.
    std::vector<uint8_t> codes;
    for (uint32_t bits = 0; bits < (1u << f.bits); ++bits) {
      const ExactValue v = decode(f, bits);
      if (!v.is_finite()) continue;
      if (!fp4 && (v.exponent < 0 ? (v.significand & ((1u << -v.exponent) - 1)) != 0 || (v.significand >> -v.exponent) > 12
                                  : (v.significand << v.exponent) > 12))
        continue;
      codes.push_back(uint8_t(fp4 ? bits << 2 : bits));
    }
    const size_t m = *rc::gen::inRange<size_t>(1, 3), n = *rc::gen::inRange<size_t>(1, 3);
    const size_t k = size_t(s.k) * *rc::gen::inRange<size_t>(1, 3);
    const auto a = *rc::gen::container<std::vector<uint8_t>>(m * k, rc::gen::elementOf(codes));
    const auto b = *rc::gen::container<std::vector<uint8_t>>(n * k, rc::gen::elementOf(codes));
    RC_CLASSIFY(true, s.op.substr(0, 24));
    const mma::GemmOperands x{m, n, k, a, b, {}, {}, {}};
    const std::vector<uint32_t> chain = mma::gemm(s, x, {.threads = 1, .allow_fast_path = false});
    RC_ASSERT(mma::gemm(s, x, {.threads = 1, .allow_fast_path = true}) == chain);
    auto value = [&](uint8_t code) { return oracle::rational(decode(f, fp4 ? uint32_t(code >> 2) : code)); };
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        mpq_class sum = 0;
        for (size_t kk = 0; kk < k; ++kk) sum += value(a[i * k + kk]) * value(b[j * k + kk]);
        RC_ASSERT(oracle::rational(decode(format_spec(FormatId::FP32), chain[i * n + j])) == sum);
      }
  }, true);
}

TEST_CASE("property: Ozaki-I slices add back to the scaled element, int8 (both slicings) and fp4", "[properties]") {
  rc::prop("ozaki1 slices", [] {
    const auto variant = *rc::gen::element(schemes::Ozaki1Variant::Int8, schemes::Ozaki1Variant::Fp4, schemes::Ozaki1Variant::Int8Cublas);
    const bool fp4 = variant == schemes::Ozaki1Variant::Fp4;
    const size_t p = fp4 ? *rc::gen::inRange<size_t>(1, 17) : *rc::gen::inRange<size_t>(1, 10);
    const size_t k = *rc::gen::inRange<size_t>(1, 5000);
    const schemes::Slicing sl(variant, p, (k + 31) / 32 * 32, 1);
    RC_CLASSIFY(variant == schemes::Ozaki1Variant::Int8Cublas, "cublas");
    const double phi = *rc::gen::inRange(0, 80) / 10.0;
    Rng rng(*rc::gen::arbitrary<uint64_t>());
    const Matrix<double> row = random_matrix(1, 16, {Distribution::Phi, phi}, rng);
    double mx = 0;
    for (double v : row.data) mx = std::max(mx, std::fabs(v));
    const int shift = sl.shift(mx);
    RC_CLASSIFY(fp4, "fp4");
    RC_CLASSIFY(p >= 8, "p >= 8");
    int8_t slices[16];
    for (double v : row.data) {
      sl.slice(v, shift, slices, 1);
      RC_ASSERT(sl.check(v, shift, slices, 1).empty());
    }
  }, true);
}

TEST_CASE("property: every scheme scales exactly under powers of two and ignores the thread count", "[properties]") {
  rc::prop("scale and thread invariance", [] {
    const int which = *rc::gen::inRange(0, 7);
    const size_t m = *rc::gen::inRange<size_t>(1, 4), k = *rc::gen::inRange<size_t>(1, 50), n = *rc::gen::inRange<size_t>(1, 4);
    Rng rng(*rc::gen::arbitrary<uint64_t>());
    const Distribution d{Distribution::Phi, *rc::gen::inRange(0, 30) / 10.0};
    const Matrix<double> a = random_matrix(m, k, d, rng), b = random_matrix(k, n, d, rng);
    const auto row_exp = *rc::gen::container<std::vector<int>>(m, rc::gen::inRange(-60, 61));
    const auto col_exp = *rc::gen::container<std::vector<int>>(n, rc::gen::inRange(-60, 61));
    Matrix<double> a2 = a, b2 = b;
    for (size_t i = 0; i < m; ++i)
      for (size_t kk = 0; kk < k; ++kk) a2(i, kk) = std::ldexp(a(i, kk), row_exp[i]);
    for (size_t kk = 0; kk < k; ++kk)
      for (size_t j = 0; j < n; ++j) b2(kk, j) = std::ldexp(b(kk, j), col_exp[j]);
    auto run = [&](const Matrix<double>& x, const Matrix<double>& y, int threads) {
      if (which >= 4) {
        schemes::Ozaki1Options o;
        o.variant = which == 4 ? schemes::Ozaki1Variant::Int8 : which == 5 ? schemes::Ozaki1Variant::Fp4 : schemes::Ozaki1Variant::Int8Cublas;
        o.threads = threads;
        return schemes::run_ozaki1(x, y, o, nullptr);
      }
      schemes::Ozaki2Options o;
      const schemes::Ozaki2Variant v[] = {schemes::Ozaki2Variant::Int8, schemes::Ozaki2Variant::Fp8, schemes::Ozaki2Variant::Fp4,
                                          schemes::Ozaki2Variant::Rare};
      o.variant = v[which];
      o.threads = threads;
      return schemes::run_ozaki2(x, y, o, nullptr);
    };
    static const char* names[] = {"ozaki2-int8", "ozaki2-fp8", "ozaki2-fp4", "rare", "ozaki1-int8", "ozaki1-fp4", "ozaki1-int8 cublas"};
    RC_CLASSIFY(true, names[which]);
    const schemes::SchemeResult r1 = run(a, b, 1), r2 = run(a2, b2, 2);
    RC_ASSERT(r1.exact && r2.exact);
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) RC_ASSERT(r2.c(i, j) == std::ldexp(r1.c(i, j), row_exp[i] + col_exp[j]));
  }, true);
}

TEST_CASE("property: MMA trace records round-trip through their JSON line", "[properties]") {
  std::vector<const mma::InstructionSpec*> specs;
  for (const std::string& name : mma::arch_names())
    for (const mma::InstructionSpec& s : mma::arch(name).instructions) specs.push_back(&s);
  rc::prop("trace record round trip", [&specs] {
    const mma::InstructionSpec& s = **rc::gen::elementOf(specs);
    MmaRecord r;
    r.op = s.op;
    r.a = *rc::gen::container<std::vector<uint8_t>>(*rc::gen::inRange<size_t>(1, 64), rc::gen::arbitrary<uint8_t>());
    r.b = *rc::gen::container<std::vector<uint8_t>>(*rc::gen::inRange<size_t>(1, 64), rc::gen::arbitrary<uint8_t>());
    if (s.kind == mma::Kind::BlockScaled) {
      r.scale_a = *rc::gen::container<std::vector<uint8_t>>(*rc::gen::inRange<size_t>(1, 5), rc::gen::arbitrary<uint8_t>());
      r.scale_b = *rc::gen::container<std::vector<uint8_t>>(*rc::gen::inRange<size_t>(1, 5), rc::gen::arbitrary<uint8_t>());
    }
    r.c = *rc::gen::arbitrary<uint32_t>();
    r.d = *rc::gen::arbitrary<uint32_t>();
    r.tag = *rc::gen::element<std::string>("", "sweep", "probe:align");
    r.arch = *rc::gen::element<std::string>("sm_90", "");
    RC_CLASSIFY(s.kind == mma::Kind::BlockScaled, "block scaled");
    const MmaRecord back = parse_mma_record(format_mma_record(r), "property");
    RC_ASSERT(back.op == r.op && back.a == r.a && back.b == r.b && back.scale_a == r.scale_a && back.scale_b == r.scale_b);
    RC_ASSERT(back.c == r.c && back.d == r.d && back.tag == r.tag && back.arch == r.arch);
  }, true);
}
