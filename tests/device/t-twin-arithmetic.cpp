// The integer arithmetic of the GPU twins (device/stages/ozaki2/arith.cuh), compiled for the host:
// the CRT of one element, the correct rounding of a wide integer times a power of two with rare's
// correction, and residues of integers held in doubles, against GMP and the CPU stages' own
// functions. The twins' kernels call exactly these functions, so this holds them where no GPU is.
#include <bit>
#include <cmath>

#include "common/rng.hpp"
#include "gmp_residue.hpp"
#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/common/crt_words.hpp"
#include "schemes/common/fp64_rounding.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/crt_element.cuh"
#include "stages/ozaki2/crt_tables.hpp"
#include "stages/ozaki2/gaussian.cuh"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;
namespace twin = ozref::device::ozaki2;

namespace {

std::vector<uint64_t> words_of(const mpz_class& x, size_t words) {
  std::vector<int64_t> w(words);
  words_from_mpz(x, w.data(), words);
  return std::vector<uint64_t>(w.begin(), w.end());
}


}  // namespace

namespace {

// The twin's CRT of `groups` elements (residue t of element e at r[t * groups + e]), E at a time.
template <int E>
std::vector<mpz_class> twin_crt(const std::vector<int16_t>& r, size_t groups, const twin::CrtTables& tables) {
  std::vector<mpz_class> out;
  twin::with_words(tables.words, [&](auto words) {
    const twin::CrtConstants<words> k = twin::crt_constants<words>(tables);
    for (size_t e0 = 0; e0 < groups; e0 += E) {
      uint64_t c[E][words];
      twin::crt_elements_of<words, E>(r.data() + e0, groups, k, c);
      for (int e = 0; e < E; ++e) {
        std::vector<int64_t> w(c[e], c[e] + words.value);
        out.push_back(mpz_from_words(w.data(), words));
      }
    }
  });
  return out;
}

}  // namespace

TEST_CASE("twin arithmetic: the CRT of elements, one and four at a time, equals GMP's exact reconstruction", "[device]") {
  Rng rng(test::seed());
  test::CaseCount cases("twin CRT elements");
  std::vector<int64_t> fp8 = fp8_square_moduli();
  fp8.insert(fp8.end(), fp8_karatsuba_moduli().begin(), fp8_karatsuba_moduli().end());
  const std::vector<int64_t> fp4 = fp4_moduli(40);  // P of 40 fp4 moduli still fits the twins' 5 words
  constexpr size_t kGroup = 4;
  for (const std::vector<int64_t>* list : {&int8_moduli(), static_cast<const std::vector<int64_t>*>(&fp8), &fp4})
    for (size_t N = 2; N <= list->size(); ++N) {
      const std::vector<int64_t> moduli(list->begin(), list->begin() + static_cast<long>(N));
      const Crt crt(moduli);
      const twin::CrtTables tables = twin::crt_tables(crt);
      for (int c = 0; c < 50 * int(test::level()); ++c) {
        std::vector<int16_t> r(N * kGroup);
        std::vector<std::vector<int32_t>> r32(kGroup, std::vector<int32_t>(N));
        for (size_t e = 0; e < kGroup; ++e)
          for (size_t t = 0; t < N; ++t) {  // random residues, the extremes weighted up
            const int64_t m = moduli[t], lo = -(m / 2), hi = (m - 1) / 2;
            const int64_t pick = (c + int(e)) % 3 == 0 ? (rng.next() & 1 ? lo : hi) : lo + int64_t(rng.next() % uint64_t(m));
            r32[e][t] = r[t * kGroup + e] = static_cast<int16_t>(pick);
          }
        const std::vector<mpz_class> one = twin_crt<1>(r, kGroup, tables), four = twin_crt<4>(r, kGroup, tables);
        for (size_t e = 0; e < kGroup; ++e) {
          INFO("moduli " << N << " of list " << list->front() << ", case " << c << ", element " << e);
          const mpz_class want = crt.exact(r32[e].data());
          REQUIRE(one[e] == want);
          REQUIRE(four[e] == want);
          ++cases;
        }
      }
    }
  cases.report((19 + 19 + (fp4.size() - 1)) * 50 * kGroup);
}

TEST_CASE("twin arithmetic: the CRT twin refuses moduli whose residues could leave its exact FP64 range", "[device]") {
  std::vector<int64_t> big;  // primes near 2^14.3: 27 of them sum to more than 2^18 in residue magnitude
  for (int64_t p = 20011; big.size() < 27; p += 2) {
    bool prime = true;
    for (int64_t d = 3; d * d <= p && prime; d += 2) prime = p % d != 0;
    if (prime) big.push_back(p);
  }
  REQUIRE_THROWS_AS(twin::crt_tables(Crt(big)), std::invalid_argument);
  big.pop_back(), big.pop_back();  // 25 of them: 250,000 < 2^18
  REQUIRE_NOTHROW(twin::crt_tables(Crt(big)));
}

TEST_CASE("twin arithmetic: unscale rounds (C' + correction) 2^e as GMP does, subnormal and overflow included", "[device]") {
  Rng rng(test::seed() + 1);
  test::CaseCount cases("twin unscale elements");
  for (int c = 0; c < 20000 * int(test::level()); ++c) {
    const int words = 1 + int(rng.next() % 5);  // every word count the twins take
    const int bits = 1 + int(rng.next() % (64 * words - 2));
    mpz_class x = 0;
    for (int b = 0; b < bits; b += 32) x = (x << 32) + static_cast<unsigned long>(rng.next() & 0xffffffffu);
    x >>= static_cast<mp_bitcnt_t>((bits + 31) / 32 * 32 - bits);
    if (c % 7 == 0) x = (mpz_class(1) << bits) + (c % 2 ? 0 : 1) + (mpz_class(1) << (bits > 60 ? bits - 54 : 0));  // near ties
    if (rng.next() & 1) x = -x;
    const int64_t corr = c % 5 == 0 ? static_cast<int64_t>(rng.next() % 4000001) - 2000000 : 0;
    const int corr_exponent = 1 + int(rng.next() % 38);
    const int e = c % 4 == 0 ? -1074 - int(rng.next() % 80) : c % 4 == 1 ? 1024 - bits + int(rng.next() % 8) - 4 : int(rng.next() % 400) - 200;
    const std::vector<uint64_t> w = words_of(x, size_t(words));
    const std::vector<int64_t> wi(w.begin(), w.end());
    const double got = twin::unscale_element(wi.data(), words, corr, corr_exponent, e);
    const mpz_class total = x + (mpz_class(static_cast<long>(corr)) << corr_exponent);
    const double want = nearest_double(total, e);
    INFO("x " << x.get_str() << " corr " << corr << " e " << e);
    REQUIRE(std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(want));
    REQUIRE(is_correct_rounding(total, e, got));
    ++cases;
  }
  cases.report(20000);
}

TEST_CASE("twin arithmetic: residues of integers held in doubles, in range and beyond 2^62", "[device]") {
  Rng rng(test::seed() + 2);
  test::CaseCount cases("twin residues");
  for (int c = 0; c < 20000 * int(test::level()); ++c) {
    const int e = int(rng.next() % 120);
    double x = std::ldexp(double(rng.next() >> 11), e - 53);
    x = std::trunc(x);
    if (rng.next() & 1) x = -x;
    for (int64_t m : {int64_t{256}, int64_t{255}, int64_t{173}, int64_t{1089}, int64_t{443}, int64_t{169}}) {
      REQUIRE(twin::residue_of_integer(x, m) == balanced_residue_of_integer(x, m));
      ++cases;
    }
  }
  cases.report(120000);
}

namespace {

using test::gmp_balanced_residue;

std::vector<int64_t> every_twin_modulus() {
  std::vector<int64_t> all = int8_moduli();
  for (const auto* list : {&fp8_square_moduli(), &fp8_karatsuba_moduli()}) all.insert(all.end(), list->begin(), list->end());
  return all;
}

}  // namespace

TEST_CASE("twin arithmetic: residues of doubles next to 2^52, 2^53, 2^62 and 2^63, against GMP", "[device]") {
  test::CaseCount cases("twin residues at the double-arithmetic edges");
  for (int64_t m : every_twin_modulus())
    for (int e : {52, 53, 54, 61, 62, 63})
      for (int64_t d = -m - 2; d <= m + 2; ++d) {
        // 2^e + d rounded to a double is an integer near the edge (d is lost above 2^53).
        const double x = std::ldexp(1.0, e) + static_cast<double>(d);
        for (const double v : {x, -x, std::nextafter(x, 0.0), -std::nextafter(x, 0.0)}) {
          if (std::trunc(v) != v) continue;  // the next double down from 2^52 holds a half
          const mpz_class exact(v);
          INFO("x " << exact.get_str() << " m " << m);
          REQUIRE(twin::residue_of_integer(v, m) == gmp_balanced_residue(exact, m));
          ++cases;
        }
      }
  cases.report(100000);
}

TEST_CASE("twin arithmetic: the Barrett reduction of INT32 GEMM outputs, in 64 and 32 bits, against GMP", "[device]") {
  Rng rng(test::seed() + 3);
  test::CaseCount cases("twin Barrett reductions");
  for (int64_t m : every_twin_modulus()) {
    std::vector<int64_t> xs = {INT32_MIN, INT32_MAX, 0, -1, 1};
    for (int64_t d = -m - 1; d <= m + 1; ++d) xs.insert(xs.end(), {int64_t{INT32_MIN} + m + 1 + d, int64_t{INT32_MAX} - m - 1 + d, d, 7 * m + d});
    for (int c = 0; c < 2000 * int(test::level()); ++c) xs.push_back(static_cast<int32_t>(rng.next()));
    for (int64_t x : xs) {
      if (x < INT32_MIN || x > INT32_MAX) continue;
      INFO("x " << x << " m " << m);
      const int64_t want = gmp_balanced_residue(mpz_class(static_cast<long>(x)), m);
      REQUIRE(twin::barrett_residue(static_cast<int32_t>(x), m) == want);
      if (twin::barrett32_applies(m))
        REQUIRE(twin::barrett_residue32(static_cast<int32_t>(x), int32_t(m), int32_t(twin::barrett_factor(m))) == want);
      ++cases;
    }
  }
  cases.report(30000);
}

TEST_CASE("twin arithmetic: the offset reduction of |v| < 2^28 modulo every INT8 modulus, against GMP", "[device]") {
  Rng rng(test::seed() + 4);
  test::CaseCount cases("twin offset reductions");
  std::vector<int64_t> moduli = int8_moduli();
  moduli.insert(moduli.end(), gaussian_int8_moduli().begin(), gaussian_int8_moduli().end());
  for (int64_t m = 2; m <= 16; ++m) moduli.push_back(m);
  constexpr int64_t kLimit = (int64_t{1} << 28) - 1;
  for (int64_t m : moduli) {
    const twin::OffsetReduction k = twin::offset_reduction(m);
    std::vector<int64_t> vs;
    for (int64_t d = 0; d <= 2 * m + 2; ++d) vs.insert(vs.end(), {kLimit - d, -kLimit + d, d - m - 1, 1000 * m + d});
    for (int c = 0; c < 2000 * int(test::level()); ++c) vs.push_back(static_cast<int64_t>(rng.next() % uint64_t(2 * kLimit + 1)) - kLimit);
    for (int64_t v : vs) {
      INFO("v " << v << " m " << m);
      REQUIRE(twin::residue_of_offset(static_cast<int32_t>(v + k.offset), int32_t(m), k.mu_up, k.half) == gmp_balanced_residue(mpz_class(static_cast<long>(v)), m));
      ++cases;
    }
  }
  cases.report(50000);
}

namespace {

// An integer |x| < 2^51 of a random bit length, or one of the range's ends.
double random_small_integer(Rng& rng) {
  const uint64_t pick = rng.next() % 16;
  if (pick == 0) return (rng.next() & 1) ? 0x1p51 - 1 : -(0x1p51 - 1);
  if (pick == 1) return static_cast<double>(static_cast<int64_t>(rng.next() % 5) - 2);
  const int bits = 1 + int(rng.next() % 51);
  const double x = static_cast<double>(rng.next() >> (64 - bits));
  return (rng.next() & 1) ? -x : x;
}

}  // namespace

TEST_CASE("twin arithmetic: the Gaussian planes re +- iota im from limbs, against GMP and the CPU stage's plane", "[device]") {
  Rng rng(test::seed() + 5);
  test::CaseCount cases("twin Gaussian planes");
  const twin::GaussianTable table = twin::gaussian_table(gaussian_int8_moduli());
  for (size_t t = 0; t < gaussian_int8_moduli().size(); ++t) {
    const int64_t m = gaussian_int8_moduli()[t];
    const GaussianModulus gm(m);
    for (int c = 0; c < 3000 * int(test::level()); ++c) {
      const double re = random_small_integer(rng), im = random_small_integer(rng);
      const twin::IntegerLimbs lre = twin::integer_limbs(re), lim = twin::integer_limbs(im);
      REQUIRE(mpz_class(lre.high) * (mpz_class(1) << 32) + mpz_class(lre.mid) * 65536 + lre.low == mpz_class(re));
      REQUIRE((lre.mid >= 0 && lre.mid < 65536 && lre.low >= 0 && lre.low < 65536));
      int32_t plus = 0, minus = 0;
      twin::gaussian_planes(lre, lim, int32_t(m), table.c[t], plus, minus);
      INFO("re " << re << " im " << im << " m " << m);
      const mpz_class turned = mpz_class(static_cast<long>(gm.iota)) * mpz_class(im);
      REQUIRE(plus == gmp_balanced_residue(mpz_class(re) + turned, m));
      REQUIRE(minus == gmp_balanced_residue(mpz_class(re) - turned, m));
      const int64_t r_re = balanced_residue_of_integer(re, m), r_im = balanced_residue_of_integer(im, m);
      REQUIRE(plus == gm.plane(r_re, r_im, 1));
      REQUIRE(minus == gm.plane(r_re, r_im, -1));
      ++cases;
    }
  }
  cases.report(30000);
}
