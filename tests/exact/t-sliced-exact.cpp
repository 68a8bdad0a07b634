// The sliced exact product (the algorithm of `ozref exact --device gpu`) against the GMP oracle and
// bit for bit against exact_gemm on every class of input: randn and phi data, exponent spreads up
// to the whole FP64 range (many slices), subnormals, cancellation, specials, odd and empty shapes.
#include <bit>
#include <cmath>
#include <limits>

#include "common/distributions.hpp"
#include "exact/exact_gemm.hpp"
#include "exact/rational_oracle.hpp"
#include "exact/gpu_exact_model.hpp"
#include "exact/int8_residue_gemm.hpp"
#include "exact/sliced_exact.hpp"
#include "support.hpp"

using namespace ozref;
using ozref::test::CaseCount;

namespace {

bool same_bits(double got, double expect) {
  if (std::isnan(expect)) return std::isnan(got);
  return std::bit_cast<uint64_t>(got) == std::bit_cast<uint64_t>(expect);
}

// Every element of the sliced product: FP64 against the oracle, and nearest, FP32 and the residual
// bit for bit against exact_gemm (itself held to the oracle in t-exact-gemm.cpp); and the GPU's
// arithmetic (gpu_exact_model: the same plan and moduli) bit for bit against the same FP64.
SlicePlan check_sliced(const Matrix<double>& a, const Matrix<double>& b, CaseCount& cases, bool oracle_too = true) {
  const SlicedProduct s = sliced_exact(a, b, 2);
  const ExactProduct e = exact_gemm(a, b, {.threads = 2});
  const SlicedProduct g = gpu_exact_model(a, b);
  REQUIRE(g.plan.pairs == s.plan.pairs);
  REQUIRE(g.plan.width == s.plan.width);
  if (s.plan.moduli) REQUIRE(g.product.moduli == s.plan.moduli);
  REQUIRE(s.product.nearest.size() == a.rows * b.cols);
  Matrix<oracle::ExactElement> ref;
  if (oracle_too) ref = oracle::gemm(a, b);
  for (size_t i = 0; i < e.nearest.size(); ++i) {
    INFO("element " << i << " of " << a.rows << "x" << a.cols << "x" << b.cols << ", slices " << s.plan.slices_a << "x"
                    << s.plan.slices_b << " of width " << s.plan.width);
    if (oracle_too) REQUIRE(same_bits(s.product.nearest[i], oracle::to_double(ref.data[i])));
    REQUIRE(same_bits(s.product.nearest[i], e.nearest[i]));
    const bool finite = std::isfinite(e.nearest[i]);
    REQUIRE(same_bits(g.product.nearest[i], e.nearest[i]));
    REQUIRE(std::bit_cast<uint32_t>(g.product.nearest_fp32[i]) == std::bit_cast<uint32_t>(e.nearest_fp32[i]));
    if (finite) REQUIRE(g.product.residual[i] == e.residual[i]);
    if (finite) REQUIRE(std::signbit(g.product.residual[i]) == std::signbit(e.residual[i]));
    if (finite) REQUIRE(g.product.residual_exact[i] == e.residual_exact[i]);
    REQUIRE(std::bit_cast<uint32_t>(s.product.nearest_fp32[i]) == std::bit_cast<uint32_t>(e.nearest_fp32[i]));
    if (finite) REQUIRE(s.product.residual[i] == e.residual[i]);
    if (finite) REQUIRE(s.product.residual_exact[i] == e.residual_exact[i]);
    ++cases;
  }
  return s.plan;
}

Matrix<double> wide_spread(size_t r, size_t c, Rng& rng, int spread) {
  Matrix<double> m(r, c);
  for (auto& x : m.data) x = std::ldexp(rng.uniform() - 0.5, static_cast<int>(rng.below(2 * spread + 1)) - spread);
  return m;
}

}  // namespace

TEST_CASE("sliced exact: randn and phi data take one slice and exact_gemm's moduli", "[exact][sliced]") {
  Rng rng(test::seed() + 40);
  CaseCount cases("elements (sliced, randn and phi)");
  for (double phi : {0.0, 1.0, 4.0})
    for (size_t k : {1, 7, 64}) {
      const Distribution d{phi == 0 ? Distribution::Randn : Distribution::Phi, phi};
      const Matrix<double> a = random_matrix(5, k, d, rng), b = random_matrix(k, 6, d, rng);
      const SlicePlan p = check_sliced(a, b, cases);
      if (phi <= 1) REQUIRE((p.slices_a == 1 && p.slices_b == 1 && p.width == 0));
      if (phi <= 1) REQUIRE(p.moduli == exact_gemm(a, b, {.method = ExactMethod::Modular}).moduli);
    }
  cases.report(9 * 30);
}

TEST_CASE("sliced exact: wide exponent spreads, 2^+-300 up to the whole FP64 range, in many slices", "[exact][sliced]") {
  Rng rng(test::seed() + 41);
  CaseCount cases("elements (sliced, wide spread)");
  for (int spread : {30, 120, 300, 700, 1100}) {
    const SlicePlan p = check_sliced(wide_spread(4, 9, rng, spread), wide_spread(9, 5, rng, spread), cases);
    if (spread >= 300) REQUIRE((p.slices_a > 1 && p.slices_b > 1 && p.pairs > 1));
  }
  cases.report(5 * 20);
}

TEST_CASE("sliced exact: subnormal inputs and results, cancellation, integers near 2^53", "[exact][sliced]") {
  Rng rng(test::seed() + 42);
  CaseCount cases("elements (sliced, subnormal and cancellation)");
  Matrix<double> a(4, 6), b(6, 3);
  for (auto& x : a.data) x = std::bit_cast<double>(rng.next() & 0x800FFFFFFFFFFFFFULL);
  for (size_t i = 0; i < b.size(); ++i) b.data[i] = i % 2 ? std::ldexp(rng.uniform() - 0.5, -20) : std::ldexp(rng.uniform(), 1000);
  check_sliced(a, b, cases);
  check_sliced(Matrix<double>(2, 2, 0x1p-1074), Matrix<double>(2, 2, -0x1p-30), cases);
  Matrix<double> c(2, 4), d(4, 2);
  c.data = {1e300, 1.0, -1e300, 0x1p-1074, 3.0, 0x1p-60, -3.0, -0x1p-60};
  d.data = {1.0, 1.0, 1.0, -1.0, 1.0, 1.0, 1.0, 0x1p-1000};
  check_sliced(c, d, cases);
  Matrix<double> e(3, 3), f(3, 3);
  for (size_t i = 0; i < 9; ++i) e.data[i] = double((1ULL << 53) - 1 - rng.below(5)), f.data[i] = i % 2 ? -1.0 : 1.0 + 0x1p-52;
  check_sliced(e, f, cases);
  cases.report(12 + 4 + 4 + 9);
}

TEST_CASE("sliced exact: NaN, infinities and signed zeros as exact_gemm defines them", "[exact][sliced]") {
  Rng rng(test::seed() + 43);
  CaseCount cases("elements (sliced, specials)");
  const double inf = std::numeric_limits<double>::infinity();
  for (auto [m, k, n] : {std::tuple{37, 53, 29}, {13, 1, 11}, {3, 257, 5}}) {
    const Distribution d{Distribution::Randn, 0};
    Matrix<double> a = random_matrix(m, k, d, rng), b = random_matrix(k, n, d, rng);
    for (size_t i = 0; i < a.rows; ++i)
      for (size_t kk = 0; kk < a.cols; ++kk) a(i, kk) = std::ldexp(a(i, kk), i % 4 == 1 ? 1000 : i % 4 == 2 ? -1000 : i % 4 == 3 ? -1070 : 0);
    for (size_t kk = 0; kk < b.rows; ++kk)
      for (size_t j = 0; j < b.cols; ++j) b(kk, j) = std::ldexp(b(kk, j), j % 3 == 1 ? -1000 : j % 3 == 2 ? 1000 : 0);
    for (int s = 0; s < 3; ++s) {
      a.data[rng.below(a.size())] = s == 0 ? std::nan("") : s == 1 ? inf : -0.0;
      b.data[rng.below(b.size())] = s == 0 ? -inf : s == 1 ? 0.0 : -0.0;
    }
    check_sliced(a, b, cases);
  }
  cases.report(37 * 29 + 13 * 11 + 3 * 5);
}

TEST_CASE("sliced exact: 1x1x1, empty dimensions and all-zero operands", "[exact][sliced]") {
  CaseCount cases("elements (sliced, shapes)");
  check_sliced(Matrix<double>(1, 1, 0x1p-1074), Matrix<double>(1, 1, 0x1p1023), cases);
  check_sliced(Matrix<double>(1, 1, -3.0), Matrix<double>(1, 1, 0.0), cases);
  check_sliced(Matrix<double>(3, 0), Matrix<double>(0, 2), cases);
  check_sliced(Matrix<double>(0, 4), Matrix<double>(4, 2, 1.0), cases);
  check_sliced(Matrix<double>(2, 5, 0.0), Matrix<double>(5, 3, -0.0), cases);
  cases.report(1 + 1 + 6 + 0 + 6);
}

TEST_CASE("sliced exact: larger wide-range products, bit for bit exact_gemm's", "[exact][sliced]") {
  Rng rng(test::seed() + 44);
  CaseCount cases("elements (sliced, larger)");
  check_sliced(wide_spread(24, 200, rng, 300), wide_spread(200, 20, rng, 300), cases, false);
  const Distribution d{Distribution::Randn, 0};
  check_sliced(random_matrix(64, 513, d, rng), random_matrix(513, 48, d, rng), cases, false);
  cases.report(24 * 20 + 64 * 48);
}

TEST_CASE("sliced exact: the GPU's rounding of a 64-bit window to FP64 and FP32 against the GMP oracle", "[exact][sliced]") {
  Rng rng(test::seed() + 45);
  CaseCount cases("windows rounded (subnormal, ties, overflow)");
  for (int e = -1074 - 70; e <= 1024 - 60; ++e)
    for (int rep = 0; rep < 6; ++rep) {
      // Bit 63 set; ties and near-ties below the rounding point for some of them.
      uint64_t sig = rng.next() | (uint64_t{1} << 63);
      if (rep == 1) sig = (sig >> 11 << 11) | (uint64_t{1} << 10);  // a tie at 53 bits
      if (rep == 2) sig = ~uint64_t{0};                              // carries to the next binade
      const bool sticky = rep == 3 || rep == 4;
      const bool negative = rep % 2;
      oracle::ExactElement x;
      x.value = mpq_class(mpz_class(std::to_string(sig))) * oracle::pow2(e);
      if (sticky) x.value += oracle::pow2(e - 1);  // inside (sig, sig + 1) * 2^e: all it says
      if (negative) x.value = -x.value;
      const double expect = oracle::to_double(x);
      INFO("sig " << sig << " e " << e << " sticky " << sticky);
      REQUIRE(std::bit_cast<uint64_t>(expect) == exact_element::round_to_fp64(negative, sig, sticky, e));
      REQUIRE(std::bit_cast<uint32_t>(oracle::to_float(x)) == exact_element::round_to_fp32(negative, sig, sticky, e));
      ++cases;
    }
  cases.report(6 * 2000);
}

TEST_CASE("sliced exact: Garner's reduction by a reciprocal, every modulus, exhaustively over its range", "[exact][sliced]") {
  // Every v below 2^17 (all Garner's intermediates) and the top 2^17 values below 2^24 (the bound
  // of the reduction's proof), against the remainder of integer division.
  CaseCount cases("reductions v mod m (exhaustive)");
  const exact_element::CrtTables t = crt_tables(340);
  REQUIRE(t.count == exact_element::kMaxModuli);
  for (int i = 0; i < t.count; ++i)
    for (uint32_t v = 0; v < (1u << 18); ++v) {
      const uint32_t x = v < (1u << 17) ? v : (1u << 24) - (1u << 18) + v;
      if (exact_element::mod_small(x, t.m[i], t.magic[i]) != x % t.m[i]) FAIL("v " << x << " m " << t.m[i]);
      ++cases;
    }
  cases.report(uint64_t{exact_element::kMaxModuli} << 18);
}

TEST_CASE("sliced exact: an entry's balanced residue against 64-bit remainders, every modulus", "[exact][sliced]") {
  Rng rng(test::seed() + 47);
  CaseCount cases("entry residues (sig below 2^53, shifts to 200)");
  const exact_element::CrtTables t = crt_tables(340);
  for (int i = 0; i < t.count; ++i) {
    const uint32_t m = t.m[i];
    std::vector<uint8_t> pow2(201);
    for (size_t s = 0, p = 1 % m; s < pow2.size(); ++s, p = p * 2 % m) pow2[s] = uint8_t(p);
    for (int rep = 0; rep < 4000; ++rep) {
      const uint64_t sig = rep < 2 ? (rep ? (uint64_t{1} << 53) - 1 : 1) : rng.next() >> (11 + rep % 40);
      const int shift = int(rng.next() % 201);
      const bool negative = rep % 3 == 0;
      uint64_t r = sig % m;  // the oracle: 64-bit remainders, the shift one doubling at a time
      for (int s = 0; s < shift; ++s) r = r * 2 % m;
      if (negative) r = (m - r) % m;
      const int expect = r >= (m + 1) / 2 ? int(r) - int(m) : int(r);
      INFO("sig " << sig << " shift " << shift << " m " << m);
      REQUIRE(int(exact_element::entry_residue(negative, sig, shift, m, t.magic[i], pow2.data())) == expect);
      ++cases;
    }
  }
  cases.report(uint64_t{exact_element::kMaxModuli} * 4000);
}

TEST_CASE("sliced exact: depths past the int8 GEMM's limit run in blocks, exactly", "[exact][sliced]") {
  Rng rng(test::seed() + 46);
  CaseCount cases("elements (sliced, depth blocks)");
  const size_t k = kInt8MaxDepth + 6;  // two blocks
  const Distribution d{Distribution::Randn, 0};
  const SlicePlan p = check_sliced(random_matrix(3, k, d, rng), random_matrix(k, 2, d, rng), cases, false);
  REQUIRE(p.depth_blocks == 2);
  // Every residue at -128 modulo 256 and the like: the largest int32 sums a block can have.
  check_sliced(Matrix<double>(2, k, 128.0), Matrix<double>(k, 2, -128.0), cases, false);
  check_sliced(wide_spread(2, 4000, rng, 400), wide_spread(4000, 3, rng, 400), cases, false);
  cases.report(6 + 4 + 6);
}
