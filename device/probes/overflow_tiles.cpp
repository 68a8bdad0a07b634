#include "overflow_tiles.hpp"

#include <cmath>
#include <cstdlib>
#include <utility>

namespace probe {
namespace {

constexpr int kM = 16, kN = 8, kK = 16;
constexpr uint32_t kPlusInf = 0x7F800000u, kMinusInf = 0xFF800000u, kFltMax = 0x7F7FFFFFu;

// The bf16 encoding of a value that bf16 holds exactly (a probe-table error aborts).
uint32_t bf16(double v) {
  const uint32_t bits = f32_bits(float(v));
  if ((bits & 0xFFFF) || double(float(v)) != v) {
    std::fprintf(stderr, "overflow_tiles: %g is not a bf16 value\n", v);
    std::abort();
  }
  return bits >> 16;
}

// One output row: products given as (k, product value), operand a = product / b_k.
using Row = std::vector<std::pair<int, double>>;

// A tile whose B columns are all `b` (K values) and whose C columns are `c` (8 patterns): each
// row of A is one case, seen under eight accumulators.
void add_tile(Tiles& t, const std::vector<double>& b, const std::vector<Row>& rows, const std::vector<uint32_t>& c,
              const std::string& tag) {
  std::vector<uint8_t> ta(size_t(kM) * kK * 2, 0), tb(size_t(kN) * kK * 2, 0);
  std::vector<uint32_t> tc(size_t(kM) * kN);
  for (int col = 0; col < kN; ++col)
    for (int k = 0; k < kK; ++k) put(tb, size_t(col) * kK + k, 2, bf16(b[k]));
  for (int row = 0; row < kM; ++row) {
    for (const auto& [k, product] : rows[row]) put(ta, size_t(row) * kK + k, 2, bf16(product / b[k]));
    for (int col = 0; col < kN; ++col) tc[size_t(row) * kN + col] = c[col];
  }
  t.add(ta, tb, tc, tag);
}

double p2(int e) { return std::ldexp(1.0, e); }

// Products beyond FP32's range (b = 2^64 everywhere): alone, cancelling, cancelling with a
// remainder, partial sums beyond range that later products bring back, overflowed sums, signs.
std::vector<Row> overflow_rows() {
  const double inf = INFINITY;
  return {
      {{0, p2(130)}},                                   // one product beyond range
      {{0, -p2(130)}},                                  // its negative
      {{0, p2(130)}, {15, -p2(130)}},                   // exact cancellation: 0, or inf - inf
      {{0, p2(130)}, {1, -p2(130)}, {2, p2(110)}},      // cancellation leaving 2^110
      {{0, p2(129)}, {15, -1.5 * p2(128)}},             // both beyond range, sum 2^127 in range
      {{0, 1.5 * p2(127)}, {1, 1.5 * p2(127)}, {15, -1.5 * p2(127)}},  // partial sum beyond, final in range
      {{0, -1.5 * p2(127)}, {7, 1.5 * p2(127)}, {15, 1.5 * p2(127)}},  // the same, negative first
      {{0, 1.5 * p2(127)}, {1, 1.5 * p2(127)}},         // in-range products, sum beyond range
      {{0, p2(127)}, {1, p2(127)}},                     // sum exactly 2^128
      {{0, p2(140)}, {15, -p2(139)}},                   // mixed signs, positive wins: +inf
      {{0, -p2(140)}, {15, p2(139)}},                   // negative wins: -inf
      {{0, p2(150)}, {1, -p2(150)}, {2, p2(140)}},      // remainder beyond range
      {{0, p2(150)}, {1, -p2(150)}, {2, p2(100)}},      // remainder far below the alignment
      {{0, p2(124)}, {1, p2(124)}, {2, p2(124)}, {3, p2(124)}, {4, p2(124)}, {5, p2(124)}, {6, p2(124)}, {7, p2(124)},
       {8, p2(124)}, {9, p2(124)}, {10, p2(124)}, {11, p2(124)}, {12, p2(124)}, {13, p2(124)}, {14, p2(124)}, {15, p2(124)}},
      {{0, p2(124)}, {1, -p2(124)}, {2, p2(124)}, {3, -p2(124)}, {4, p2(124)}, {5, -p2(124)}, {6, p2(124)}, {7, -p2(124)},
       {8, p2(130)}, {9, -p2(130)}},                    // alternating signs, sum 0
      {{0, -inf}, {15, p2(130)}},                       // an infinite product against an overflowed one
  };
}

// The extremes (b = 2^127): products up to (2 - 2^-7) * 2^254 and alignment over 2^254.
std::vector<Row> extreme_rows() {
  const double top = 1.9921875 * p2(254), inf = INFINITY;
  Row sixteen_top, alternating_top;
  for (int k = 0; k < kK; ++k) {
    sixteen_top.push_back({k, top});
    alternating_top.push_back({k, k % 2 ? -top : top});
  }
  return {
      {{0, top}, {15, -top}},                           // the largest products cancel
      {{0, 1.5 * p2(254)}, {15, -p2(254)}},             // sum 2^253
      {{0, p2(254)}, {1, p2(254)}, {15, -p2(254)}},     // partial sum 2^255
      sixteen_top,                                      // sum near 2^258
      alternating_top,                                  // sum 0
      {{0, p2(254)}, {1, -p2(254)}, {2, p2(230)}},      // remainder 2^230
      {{0, p2(254)}, {1, -p2(254)}, {2, p2(127)}},      // remainder 127 bits below
      {{0, p2(128)}, {15, -1.5 * p2(127)}},             // 2^128 - 1.5 * 2^127 = 2^126
      {{0, -p2(128)}, {15, 1.5 * p2(127)}},             // its negative
      {{0, p2(127)}, {1, p2(127)}, {15, -p2(127)}},     // partial 2^128, final 2^127
      {{0, 1.9921875 * p2(127)}},                       // the largest finite bf16 product below 2^128
      {{0, inf}, {15, -p2(130)}},                       // +inf product against a -2^130 one
      {{0, p2(200)}, {15, -p2(200)}},                   // cancellation: C is aligned below 2^200
      {{0, p2(200)}, {15, -p2(200)}, {7, p2(176)}},     // remainder 24 bits below the alignment
      {{0, p2(200)}, {15, -p2(200)}, {7, p2(175)}},     // remainder 25 bits below
      {{0, p2(200)}, {15, -p2(200)}, {7, p2(174)}},     // remainder 26 bits below
  };
}

// A zero product beside a huge operand (b_0 = 2^(127 - 8j) in column j): does it raise the
// alignment exponent (MMA-Sim's reading: a zero counts with exponent -126 + e_b) or not?
void zero_product_tiles(Tiles& t, ozref::Rng& r) {
  std::vector<uint8_t> ta(size_t(kM) * kK * 2, 0), tb(size_t(kN) * kK * 2, 0);
  std::vector<uint32_t> tc(size_t(kM) * kN, 0);
  for (int col = 0; col < kN; ++col) {
    put(tb, size_t(col) * kK, 2, bf16(p2(127 - 8 * col)));
    for (int k = 1; k < kK; ++k) put(tb, size_t(col) * kK + k, 2, bf16(1.0));
  }
  for (int row = 0; row < kM; ++row) {
    put(ta, size_t(row) * kK, 2, row % 2 ? 0x8000u : 0u);  // +0 or -0
    for (int k = 1; k < kK; ++k)
      put(ta, size_t(row) * kK + k, 2, make(Fmt::BF16, r.below(2), 127 - 20 - int(r.below(12)), uint32_t(r.next())));
    for (int col = 0; col < kN; ++col)
      tc[size_t(row) * kN + col] = row < 8 ? 0u : f32_bits(std::ldexp(float(1 + r.below(255)) / 256, -24 - int(r.below(8))));
  }
  t.add(ta, tb, tc, "overflow:zero_product_alignment");
}

// Random operands with large exponents (products between 2^40 and 2^256, mixed signs) and
// random C. Cancelling tiles pair each even k with the next: the same B, and in three pairs of
// four the negated A (the products cancel exactly), else an A below 2^40 (a remainder).
void random_tiles(Tiles& t, ozref::Rng& r, bool cancelling, int tiles) {
  std::vector<uint8_t> ta(size_t(kM) * kK * 2), tb(size_t(kN) * kK * 2);
  std::vector<uint32_t> tc(size_t(kM) * kN);
  const uint32_t special_c[] = {kPlusInf, kMinusInf, kFltMax, kFltMax | 0x80000000u};
  auto big = [&r] { return make(Fmt::BF16, r.below(2), 127 + 20 + int(r.below(108)), uint32_t(r.next())); };
  for (int i = 0; i < tiles; ++i) {
    for (int row = 0; row < kM; ++row) {
      uint32_t previous = 0;
      for (int k = 0; k < kK; ++k) {
        uint32_t v = big();
        if (cancelling && k % 2 == 1)
          v = r.below(4) ? previous ^ 0x8000u : make(Fmt::BF16, r.below(2), 127 + int(r.below(40)), uint32_t(r.next()));
        put(ta, size_t(row) * kK + k, 2, v);
        previous = v;
      }
    }
    for (int col = 0; col < kN; ++col) {
      uint32_t previous = 0;
      for (int k = 0; k < kK; ++k) {
        const uint32_t v = cancelling && k % 2 == 1 ? previous : big();
        put(tb, size_t(col) * kK + k, 2, v);
        previous = v;
      }
    }
    for (auto& c : tc) {
      const uint32_t pick = uint32_t(r.below(16));
      c = pick < 4 ? special_c[pick]
          : pick < 8 ? 0u
                     : f32_bits((r.below(2) ? -1.0f : 1.0f) * std::ldexp(float(r.uniform() + 0.5), int(r.below(250)) - 125));
    }
    t.add(ta, tb, tc, cancelling ? "overflow:random_cancelling" : "overflow:random");
  }
}

}  // namespace

void overflow_tiles(Tiles& t, ozref::Rng& r) {
  // Eight accumulators for each targeted row: zeros, +-1, +-2^110 (in range, far below the
  // products), the largest finite and both infinities.
  const std::vector<uint32_t> c = {0u, 0x3F800000u, 0xBF800000u, f32_bits(0x1p110f), f32_bits(-0x1p110f), kFltMax, kPlusInf, kMinusInf};
  add_tile(t, std::vector<double>(kK, p2(64)), overflow_rows(), c, "overflow:targeted");
  add_tile(t, std::vector<double>(kK, p2(127)), extreme_rows(), c, "overflow:extreme");
  zero_product_tiles(t, r);
  random_tiles(t, r, false, 8);
  random_tiles(t, r, true, 8);
}

}  // namespace probe
