// The modular integer product (exact/crt_gemm) against sums in Boost.Multiprecision's checked
// 1024-bit integers (an overflow there throws instead of wrapping): random significands and
// shifts, every element at the range bound of both signs, exact cancellation, K = 1, depths
// that shrink the primes, and shapes that are multiples of nothing.
#include <boost/multiprecision/cpp_int.hpp>

#include "common/distributions.hpp"
#include "exact/crt_gemm.hpp"
#include "support.hpp"

using namespace ozref;
using ozref::test::CaseCount;
using Checked = boost::multiprecision::checked_int1024_t;

namespace {

Checked value(int64_t significand, int shift) {  // Boost refuses to shift negative values
  const Checked magnitude = Checked(significand < 0 ? -significand : significand) << shift;
  return significand < 0 ? Checked(-magnitude) : magnitude;
}

Checked element(const WideIntegerMatrix& c, size_t idx) {
  Checked v = 0;
  const auto words = c.at(idx);
  for (size_t w = words.size(); w-- > 0;) v = (v << 64) + Checked(words[w]);
  return c.negative[idx] ? Checked(-v) : v;
}

ScaledIntegerMatrix random_integers(size_t rows, size_t cols, int max_shift, Rng& rng) {
  ScaledIntegerMatrix x{rows, cols, Buffer<int64_t>(rows * cols), Buffer<uint16_t>(rows * cols)};
  for (size_t i = 0; i < x.significand.size(); ++i) {
    const int64_t s = static_cast<int64_t>(rng.next() >> (11 + rng.below(53)));  // below 2^53
    x.significand[i] = rng.below(2) ? -s : s;
    x.shift[i] = static_cast<uint16_t>(rng.below(uint64_t(max_shift) + 1));
  }
  return x;
}

// The bound the callers pass: each element below 2^(53 + max_shift), so |c| < k * 2^(2 (53 + s)).
long range_bits(size_t k, int max_shift) {
  long log2_k = 0;
  while ((size_t{1} << log2_k) < k) ++log2_k;
  return 2 * (53L + max_shift) + log2_k;
}

void check(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b, long bits, CaseCount& cases) {
  const WideIntegerMatrix c = crt_gemm(a, b, bits);
  REQUIRE(c.negative.size() == a.rows * b.cols);
  for (size_t i = 0; i < a.rows; ++i)
    for (size_t j = 0; j < b.cols; ++j) {
      Checked expect = 0;
      for (size_t kk = 0; kk < a.cols; ++kk)
        expect += value(a.significand[i * a.cols + kk], a.shift[i * a.cols + kk]) *
                  value(b.significand[kk * b.cols + j], b.shift[kk * b.cols + j]);
      INFO("element (" << i << ", " << j << ") of " << a.rows << "x" << a.cols << "x" << b.cols
                       << ", " << bits << " bits");
      REQUIRE(element(c, i * b.cols + j) == expect);
      ++cases;
    }
}

}  // namespace

TEST_CASE("crt gemm: random wide integers match checked multiprecision sums", "[exact]") {
  Rng rng(test::seed() + 20);
  CaseCount cases("elements (random wide integers)");
  for (auto [m, k, n, shift] : {std::tuple{3, 1, 4, 0}, {7, 13, 5, 20}, {1, 300, 1, 100}, {33, 65, 17, 60},
                                {5, 3000, 3, 30}, {4, 9, 6, 400}}) {
    const ScaledIntegerMatrix a = random_integers(m, k, shift, rng), b = random_integers(k, n, shift, rng);
    check(a, b, range_bits(k, shift), cases);
  }
  cases.report(12 + 35 + 1 + 561 + 15 + 24);
}

TEST_CASE("crt gemm: elements at the range bound of both signs, and exact cancellation", "[exact]") {
  CaseCount cases("elements (range bound)");
  const int64_t top = (int64_t{1} << 53) - 1;
  for (auto [k, shift] : {std::pair{1, 0}, {64, 10}, {1025, 200}}) {
    ScaledIntegerMatrix a{2, size_t(k), Buffer<int64_t>(2 * k, top), Buffer<uint16_t>(2 * k, uint16_t(shift))};
    ScaledIntegerMatrix b{size_t(k), 3, Buffer<int64_t>(3 * k, top), Buffer<uint16_t>(3 * k, uint16_t(shift))};
    for (int kk = 0; kk < k; ++kk) {
      a.significand[k + kk] = -top;                          // row 1: every product negative
      b.significand[kk * 3 + 2] = kk % 2 ? -top : top;         // column 2: cancels for even k
    }
    check(a, b, range_bits(size_t(k), shift), cases);
  }
  cases.report(3 * 6);
}

// The int8 mode's own bounds: at K = 2^17 - 1 every residue modulo 256 is -128 (the values +-128 and
// 255 * 128 all are), so each int32 sum of that GEMM is K * 2^14 = 2^31 - 2^14, the most the mode
// allows; one more K leaves the int8 mode for DGEMMs. Both against checked sums.
TEST_CASE("crt gemm: int8 mode at its largest depth, residues at the edge of int8", "[exact]") {
  CaseCount cases("elements (int8 depth limit)");
  for (size_t k : {size_t{131071}, size_t{131072}}) {
    INFO("K = " << k);
    CHECK(crt_plan(k, 40).int8 == (k < 131072));
    ScaledIntegerMatrix a{2, k, Buffer<int64_t>(2 * k, 1), Buffer<uint16_t>(2 * k, 7)};
    ScaledIntegerMatrix b{k, 2, Buffer<int64_t>(2 * k, 1), Buffer<uint16_t>(2 * k, 7)};
    for (size_t kk = 0; kk < k; ++kk) {
      a.significand[k + kk] = -1;                      // row 1: -128
      b.significand[kk * 2 + 1] = kk % 3 ? 255 : -1;  // column 1: 255 * 128 (-2 mod 256) or -128
    }
    check(a, b, range_bits(k, 7 + 8), cases);
  }
  cases.report(2 * 4);
}

// The range where the int8 mode ends (its moduli multiply to about 2^350): products at that bound,
// every element at its largest magnitude of both signs and random ones, then one bit more (DGEMMs).
TEST_CASE("crt gemm: products at the int8 mode's range limit and one bit beyond", "[exact]") {
  Rng rng(test::seed() + 21);
  CaseCount cases("elements (int8 range limit)");
  const size_t k = 64;
  long limit = 100;
  while (crt_plan(k, limit + 1).int8) ++limit;
  CHECK(!crt_plan(k, limit + 1).int8);
  CHECK(crt_plan(k, limit + 1).moduli > 0);
  const int shift = int((limit - 6) / 2 - 53);  // range_bits(64, shift) <= limit
  REQUIRE(range_bits(k, shift) <= limit);
  const int64_t top = (int64_t{1} << 53) - 1;
  for (long bits : {limit, limit + 1}) {
    INFO(bits << " bits (int8 limit " << limit << ")");
    ScaledIntegerMatrix a = random_integers(3, k, shift, rng), b = random_integers(k, 4, shift, rng);
    for (size_t kk = 0; kk < k; ++kk) {
      a.significand[kk] = top, a.shift[kk] = uint16_t(shift);                 // row 0: all at the top
      a.significand[k + kk] = -top, a.shift[k + kk] = uint16_t(shift);        // row 1: its negative
      b.significand[kk * 4] = top, b.shift[kk * 4] = uint16_t(shift);         // column 0: at the top
    }
    check(a, b, bits, cases);
  }
  cases.report(2 * 12);
}

// Where the int8 mode joins the GEMMs' int32 sums without reducing them first (3 K 2^14 P <= 2^52:
// up to K = 5547 for the first group's P = 256 * 255 * 253) and just beyond: every residue modulo
// 256 at -128, so that the first GEMM's sums are K 2^14, the most they can be, against checked sums.
TEST_CASE("crt gemm: int8 mode at the depth where the joining reduces first", "[exact]") {
  CaseCount cases("elements (join depth)");
  for (size_t k : {size_t{1024}, size_t{5547}, size_t{5548}, size_t{6000}}) {
    INFO("K = " << k);
    ScaledIntegerMatrix a{2, k, Buffer<int64_t>(2 * k, 1), Buffer<uint16_t>(2 * k, 7)};
    ScaledIntegerMatrix b{k, 2, Buffer<int64_t>(2 * k, 1), Buffer<uint16_t>(2 * k, 7)};
    for (size_t kk = 0; kk < k; ++kk) {
      a.significand[k + kk] = -1;                      // row 1: -128
      b.significand[kk * 2 + 1] = kk % 3 ? 255 : -1;  // column 1: 255 * 128 (-2 mod 256) or -128
    }
    REQUIRE(crt_plan(k, range_bits(k, 7 + 8)).int8);
    check(a, b, range_bits(k, 7 + 8), cases);
  }
  cases.report(4 * 4);
}
