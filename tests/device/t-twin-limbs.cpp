// The limb arithmetic of the FP8 and FP4 GPU twins (device/stages/ozaki2/limbs.cuh), compiled for
// the host, against the CPU stages' own functions: the split of every balanced residue of every
// ozaki2-fp8 and ozaki2-fp4 modulus (fp4 through two-limb tables the twins' own search builds),
// the E4M3 encoding of every limb value (decoded by the formats library), the integer of an FP32
// GEMM output over every exponent and random patterns, and the recombination of random GEMM
// outputs, integer or not. The split, gemm and recombine twins call exactly these functions.
#include <algorithm>
#include <bit>
#include <cmath>

#include "common/rng.hpp"
#include "formats/decode.hpp"
#include "formats/format.hpp"
#include "schemes/common/lowp_gemm.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/ozaki2/modular_product.hpp"
#include "stages/ozaki2/limb_products.hpp"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;
namespace twin = ozref::device::ozaki2;

namespace {

std::vector<int64_t> fp8_moduli() {
  std::vector<int64_t> m = fp8_square_moduli();
  m.insert(m.end(), fp8_karatsuba_moduli().begin(), fp8_karatsuba_moduli().end());
  return m;
}

const LowpGemm& fp8_gemm() {
  static const LowpGemm g(scheme_instruction("sm_90", LowpFormat::E4M3, "", "ozaki2-fp8"), LowpFormat::E4M3);
  return g;
}

const LowpGemm& fp4_gemm() {
  static const LowpGemm g(scheme_instruction("sm_120", LowpFormat::E2M1, "", "ozaki2-fp4"), LowpFormat::E2M1);
  return g;
}

// The fp4 twins' tables as two_limb_tables builds them on the device, here on the host.
std::vector<int8_t> host_two_limb_tables(const twin::LimbProducts& f) {
  std::vector<int8_t> tables(2 * f.table_pairs);
  for (const twin::LimbProduct& p : f.products)
    for (int64_t r = 0; r < p.modulus; ++r) REQUIRE(twin::two_limbs(p.modulus, r, &tables[2 * (p.table + r)]));
  return tables;
}

}  // namespace

TEST_CASE("twin limbs: the split of every residue of every fp8 modulus is the CPU stage's", "[device]") {
  const std::vector<int64_t> moduli = fp8_moduli();
  const auto products = make_products(Ozaki2Variant::Fp8, moduli.size());
  const twin::LimbProducts twins = twin::limb_products(Ozaki2Variant::Fp8, moduli.size());
  test::CaseCount cases("twin fp8 splits");
  for (size_t t = 0; t < products.size(); ++t) {
    const ModularProduct* mp = products[t].get();
    const twin::LimbProduct& p = twins.products[t];
    REQUIRE((p.root != 0) == (mp->limbs() == 2));  // square moduli have two limbs, Karatsuba three
    const int64_t m = mp->modulus();
    for (int64_t r = -(m / 2); r <= (m - 1) / 2; ++r, ++cases) {
      int8_t got[twin::kMaxLimbs] = {}, want[4] = {};
      REQUIRE(twin::split_limbs(p, static_cast<int32_t>(r), got) == static_cast<int>(mp->limbs()));
      mp->split(static_cast<int32_t>(r), want);
      INFO(mp->name() << " residue " << r);
      for (size_t q = 0; q < mp->limbs(); ++q) REQUIRE(int(got[q]) == int(want[q]));
      REQUIRE(mp->check_split(static_cast<int32_t>(r), got).empty());
    }
  }
  cases.report(10000);
}

TEST_CASE("twin limbs: the split of every residue of every fp4 modulus is the CPU stage's", "[device]") {
  const size_t count = fp4_moduli(19).size();
  const auto products = make_products(Ozaki2Variant::Fp4, count);
  const twin::LimbProducts twins = twin::limb_products(Ozaki2Variant::Fp4, count);
  const std::vector<int8_t> tables = host_two_limb_tables(twins);
  test::CaseCount cases("twin fp4 splits");
  for (size_t t = 0; t < products.size(); ++t) {
    const ModularProduct* mp = products[t].get();
    const twin::LimbProduct& p = twins.products[t];
    REQUIRE(mp->limbs() == 2);
    const int64_t m = mp->modulus();
    for (int64_t r = -(m / 2); r <= (m - 1) / 2; ++r, ++cases) {
      int8_t got[twin::kMaxLimbs] = {}, want[4] = {};
      REQUIRE(twin::split_limbs(p, static_cast<int32_t>(r), got, tables.data()) == 2);
      mp->split(static_cast<int32_t>(r), want);
      INFO(mp->name() << " residue " << r);
      REQUIRE(int(got[0]) == int(want[0]));
      REQUIRE(int(got[1]) == int(want[1]));
      REQUIRE(mp->check_split(static_cast<int32_t>(r), got).empty());
    }
  }
  cases.report(1000);
}

TEST_CASE("twin limbs: two_limbs reaches every class of exactly the CPU's two-limb candidate moduli", "[device]") {
  const std::vector<int64_t> candidates = fp4_two_limb_candidates();
  test::CaseCount cases("twin fp4 two-limb moduli");
  for (int64_t m = 2; m <= 170; ++m, ++cases) {
    bool every = true;
    for (int64_t r = 0; r < m; ++r) {
      int8_t l[2] = {};
      every = twin::two_limbs(m, r, l) && every;
    }
    INFO("modulus " << m);
    REQUIRE(every == (std::find(candidates.begin(), candidates.end(), m) != candidates.end()));
  }
  cases.report(169);
}

TEST_CASE("twin limbs: every limb value's E4M3 encoding decodes to it", "[device]") {
  const FormatSpec& e4m3 = format_spec(FormatId::E4M3);
  for (int v = -16; v <= 16; ++v) {
    const ExactValue x = decode(e4m3, twin::e4m3_of_small_integer(static_cast<int8_t>(v)));
    INFO("limb " << v << " encoded " << int(twin::e4m3_of_small_integer(static_cast<int8_t>(v))));
    REQUIRE(x.is_finite());
    const long double value = std::ldexp(static_cast<long double>(x.significand), x.exponent) * (x.negative ? -1 : 1);
    REQUIRE(value == v);
    REQUIRE((v < 0) == x.negative);  // no -0 for the limb 0: its encoding is 0x00
  }
}

TEST_CASE("twin limbs: every fp4 limb's E2M1 container is the CPU GEMM's operand byte", "[device]") {
  const LowpGemm& g = fp4_gemm();
  test::CaseCount cases("twin e2m1 containers");
  for (int64_t d : fp4_digits()) {
    const int8_t limb = static_cast<int8_t>(d);
    INFO("limb " << int(limb));
    REQUIRE(g.representable(limb));
    REQUIRE(int(twin::e2m1_container_of_limb(limb)) == int(g.encode_line(&limb, 1, 1)[0]));
    ++cases;
  }
  cases.report(15);
}

TEST_CASE("twin limbs: an FP32 output's integer is LowpGemm::integer_output's", "[device]") {
  const bool fp4 = GENERATE(false, true);  // fp4: the output times 4
  Rng rng(test::seed());
  test::CaseCount cases(fp4 ? "twin fp32 integer outputs (fp4)" : "twin fp32 integer outputs (fp8)");
  const LowpGemm& g = fp4 ? fp4_gemm() : fp8_gemm();
  auto same = [&](uint32_t bits) {
    INFO("bits " << std::hex << bits);
    REQUIRE(twin::fp32_integer_output(bits, fp4 ? 2 : 0) == g.integer_output(bits));
    ++cases;
  };
  for (uint32_t sign = 0; sign < 2; ++sign)
    for (uint32_t biased = 0; biased < 256; ++biased)  // every exponent, the fraction's extremes and a random one
      for (uint32_t fraction : {0u, 1u, 0x400000u, 0x7fffffu, static_cast<uint32_t>(rng.next()) & 0x7fffffu})
        same(sign << 31 | biased << 23 | fraction);
  for (int c = 0; c < 100000 * int(test::level()); ++c) same(static_cast<uint32_t>(rng.next()));
  for (int64_t v = -(int64_t{1} << 24); v <= (int64_t{1} << 24); v += 9973) same(std::bit_cast<uint32_t>(static_cast<float>(v)));
  cases.report(100000);
}

TEST_CASE("twin limbs: the recombination of GEMM outputs is the CPU stage's", "[device]") {
  const bool fp4 = GENERATE(false, true);
  const Ozaki2Variant variant = fp4 ? Ozaki2Variant::Fp4 : Ozaki2Variant::Fp8;
  Rng rng(test::seed());
  test::CaseCount cases(fp4 ? "twin fp4 recombinations" : "twin fp8 recombinations");
  const size_t count = fp4 ? fp4_moduli(19).size() : fp8_moduli().size();
  const auto products = make_products(variant, count);
  const twin::LimbProducts twins = twin::limb_products(variant, count);
  for (size_t t = 0; t < products.size(); ++t) {
    const ModularProduct* mp = products[t].get();
    const twin::LimbProduct& p = twins.products[t];
    for (int c = 0; c < 2000 * int(test::level()); ++c, ++cases) {
      uint32_t outputs[twin::kMaxTerms];
      const uint32_t* columns[twin::kMaxTerms];
      for (int t = 0; t < p.terms; ++t) {  // integers up to 2^26 (exact and not), a random pattern now and then
        const float v = static_cast<float>(static_cast<int64_t>(rng.below(uint64_t{1} << 27)) - (int64_t{1} << 26));
        outputs[t] = c % 17 == 0 ? static_cast<uint32_t>(rng.next()) : std::bit_cast<uint32_t>(c % 5 == 0 ? v / 8 : v);
        columns[t] = &outputs[t];
      }
      int16_t want = 0;
      mp->combine_all(fp4 ? fp4_gemm() : fp8_gemm(), columns, 1, &want);
      INFO(mp->name() << " case " << c);
      REQUIRE(twin::recombine_outputs(p, outputs) == want);
    }
  }
  cases.report(10000);
}
