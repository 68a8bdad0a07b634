#include "exact/gpu_exact_model.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <stdexcept>

#include "exact/int8_residue_gemm.hpp"
#include "exact/scaled_long_double.hpp"
#include "formats/wide_accumulator.hpp"

namespace ozref {
using namespace exact_parts;
using namespace exact_element;

exact_element::CrtTables crt_tables(long bits) {
  CrtTables t;
  const std::vector<uint32_t>& all = int8_moduli();
  std::vector<uint64_t> product{1};
  auto enough = [&] {  // M >= 2^(bits + 1)
    const long msb = long(product.size() - 1) * 64 + std::bit_width(product.back()) - 1;
    return msb >= bits + 1;
  };
  while (!enough()) {
    if (t.count == kMaxModuli) throw std::invalid_argument("crt_tables: 2^" + std::to_string(bits) + " is beyond the int8 moduli");
    const uint32_t m = all[size_t(t.count)];
    uint32_t prefix = 1;  // (m_0 ... m_{t-1}) mod m, then its inverse by search (m <= 256)
    for (int s = 0; s < t.count; ++s) prefix = prefix * t.m[s] % m;
    uint32_t inv = 0;
    while (m > 1 && prefix * inv % m != 1) ++inv;
    t.m[t.count] = m, t.inv[t.count] = inv, t.magic[t.count] = uint32_t(((uint64_t{1} << 32) + m - 1) / m);
    ++t.count;
    uint64_t carry = 0;
    for (auto& w : product) {
      const u128 x = u128{w} * m + carry;
      w = uint64_t(x), carry = uint64_t(x >> 64);
    }
    if (carry) product.push_back(carry);
  }
  t.words = int(product.size());
  for (int w = 0; w < t.words; ++w) {
    t.product[w] = product[size_t(w)];
    t.half[w] = (product[size_t(w)] >> 1) | (w + 1 < t.words ? product[size_t(w) + 1] << 63 : 0);
  }
  return t;
}

GpuExactSetup gpu_exact_setup(const Analysis& an, size_t k) {
  GpuExactSetup g;
  g.plan = slice_plan(an, k);
  int wa = 0, wb = 0;
  for (const auto& e : an.rows) g.row_low.push_back(e.low), wa = e.empty() ? wa : std::max(wa, e.top - e.low);
  for (const auto& e : an.cols) g.col_low.push_back(e.low), wb = e.empty() ? wb : std::max(wb, e.top - e.low);
  g.words = words_for_bits(long(wa) + wb + ceil_log2(k) + 2);
  if (!g.plan.moduli) return g;  // nothing to compute
  g.tables = crt_tables(g.plan.pair_bits);
  g.max_shift = g.plan.width ? g.plan.width - 1 : std::max(wa, wb);
  const size_t row = size_t(g.max_shift) + 1;
  g.pow2.resize(size_t(g.tables.count) * row);
  for (int t = 0; t < g.tables.count; ++t) {
    uint32_t p = 1 % g.tables.m[t];
    for (size_t s = 0; s < row; ++s, p = p * 2 % g.tables.m[t]) g.pow2[size_t(t) * row + s] = uint8_t(p);
  }
  return g;
}

namespace {

// The residues of slice s of x's lines (B by columns when `columns`), depth [k0, k0 + kb), modulus
// by modulus: out[t][l * kb + kk]. Returns whether any is of a nonzero entry.
bool residues(const Matrix<double>& x, bool columns, const std::vector<int>& low, const GpuExactSetup& g, int s, size_t k0,
              size_t kb, std::vector<std::vector<int8_t>>& out) {
  const size_t lines = columns ? x.cols : x.rows, row = size_t(g.max_shift) + 1;
  bool any = false;
  out.assign(size_t(g.tables.count), std::vector<int8_t>(lines * kb));
  for (int t = 0; t < g.tables.count; ++t)
    for (size_t l = 0; l < lines; ++l)
      for (size_t kk = 0; kk < kb; ++kk) {
        const double v = columns ? x.data[(k0 + kk) * x.cols + l] : x.data[l * x.cols + k0 + kk];
        const int8_t r = slice_residue(std::bit_cast<uint64_t>(v), low[l], g.plan.width, s, g.tables.m[t], g.tables.magic[t],
                                       &g.pow2[size_t(t) * row]);
        out[size_t(t)][l * kb + kk] = r;
        uint64_t sig = 0;
        int shift = 0;  // whether the slice holds a nonzero entry: the same for every modulus, asked at the first
        any = any || (t == 0 && slice_entry(std::bit_cast<uint64_t>(v), low[l], g.plan.width, s, sig, shift));
      }
  return any;
}

}  // namespace

SlicedProduct gpu_exact_model(const Matrix<double>& a, const Matrix<double>& b) {
  if (a.cols != b.rows) throw std::invalid_argument("gpu_exact_model: inner dimensions differ");
  const size_t m = a.rows, k = a.cols, n = b.cols;
  SlicedProduct r;
  fill_canaries(r.product, m * n);
  r.product.rows = m, r.product.cols = n, r.product.depth = k;
  const Analysis an = analyse(a, b);
  GpuExactSetup g = gpu_exact_setup(an, k);
  std::vector<uint64_t> acc(m * n * g.words, 0);
  std::vector<std::vector<int8_t>> ra, rb;
  std::vector<uint8_t> u(size_t(g.tables.count) * m * n);
  for (size_t block = 0; g.plan.moduli && block < g.plan.depth_blocks; ++block) {
    const size_t k0 = block * g.plan.depth_block, kb = std::min(g.plan.depth_block, k - k0);
    for (int s = 0; s < g.plan.slices_a; ++s) {
      if (!residues(a, false, g.row_low, g, s, k0, kb, ra)) continue;
      for (int t = 0; t < g.plan.slices_b; ++t) {
        if (!residues(b, true, g.col_low, g, t, k0, kb, rb)) continue;
        ++g.plan.pairs;
        for (int q = 0; q < g.tables.count; ++q)  // gemm: int32 sums, reduced modulo m_q
          for (size_t e = 0; e < m * n; ++e) {
            int32_t sum = 0;
            for (size_t kk = 0; kk < kb; ++kk) sum += int32_t(ra[size_t(q)][(e / n) * kb + kk]) * rb[size_t(q)][(e % n) * kb + kk];
            u[size_t(q) * m * n + e] = reduce_sum(sum, g.tables.m[q]);
          }
        for (size_t e = 0; e < m * n; ++e) {  // crt, then the exact addition at the pair's offset
          uint64_t mag[kCrtWords];
          bool negative = false;
          garner(g.tables, &u[e], m * n, mag, negative);
          add_shifted(&acc[e * g.words], int(g.words), negative, mag, g.tables.words, unsigned((s + t) * g.plan.width));
        }
      }
    }
  }
  for (size_t e = 0; e < m * n; ++e) {  // round
    const int base = g.row_low[e / n] == INT_MAX || g.col_low[e % n] == INT_MAX ? 0 : g.row_low[e / n] + g.col_low[e % n];
    const RoundedElement x = round_element(&acc[e * g.words], int(g.words), base);
    r.product.nearest[e] = std::bit_cast<double>(x.nearest);
    r.product.nearest_fp32[e] = std::bit_cast<float>(x.nearest_fp32);
    const long double residual = scaled_long_double(x.residual_sig, x.residual_exp);
    r.product.residual[e] = x.residual_negative ? -residual : residual;
    r.product.residual_exact[e] = x.residual_exact;
  }
  apply_specials(a, b, an, r.product);
  r.product.moduli = g.tables.count;
  r.plan = g.plan;
  return r;
}

}  // namespace ozref
