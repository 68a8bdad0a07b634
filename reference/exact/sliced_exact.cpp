#include "exact/sliced_exact.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "exact/crt_gemm.hpp"
#include "exact/int8_residue_gemm.hpp"
#include "formats/wide_accumulator.hpp"

namespace ozref {
using namespace exact_parts;

namespace {

int widest(const std::vector<LineExtent>& lines) {
  int w = 0;
  for (const auto& e : lines)
    if (!e.empty()) w = std::max(w, e.top - e.low);
  return w;
}

// Slices of a line whose set bits span `width` bits: its entries' lowest bits lie below `width`
// over the line's lowest, slice s holding the offsets [s W, (s + 1) W).
int slices_of(int width, int w) { return w == 0 || width == 0 ? 1 : (width - 1) / w + 1; }

// Slice s of x's lines (rows of x, or with `columns` its columns, written as rows: B transposed,
// as crt_gemm takes it), depth [k0, k0 + kb): each entry in that slice as sig * 2^(off mod W),
// every other entry 0. Returns whether any entry is nonzero.
bool slice_of(const Matrix<double>& x, bool columns, const std::vector<LineExtent>& lines, int w, int s, size_t k0,
              size_t kb, ScaledIntegerMatrix& out) {
  const size_t lines_count = columns ? x.cols : x.rows;
  out.rows = lines_count;
  out.cols = kb;
  out.significand.resize(lines_count * kb);
  out.shift.resize(lines_count * kb);
  bool any = false;
#pragma omp parallel for schedule(static) reduction(|| : any)
  for (size_t l = 0; l < lines_count; ++l)
    for (size_t kk = 0; kk < kb; ++kk) {
      const double v = columns ? x.data[(k0 + kk) * x.cols + l] : x.data[l * x.cols + k0 + kk];
      const Parts p = std::isfinite(v) ? parts_of(v) : Parts{};
      const int off = p.sig ? p.exp - lines[l].low : -1;
      const bool in = p.sig && (w == 0 ? s == 0 : off / w == s);
      out.significand[l * kb + kk] = in ? (p.negative ? -int64_t(p.sig) : int64_t(p.sig)) : 0;
      out.shift[l * kb + kk] = in ? uint16_t(w == 0 ? off : off % w) : 0;
      any = any || in;
    }
  return any;
}

// acc += (-1)^negative * magnitude * 2^shift, a word at a time.
void add_at(std::span<uint64_t> acc, bool negative, const uint64_t* magnitude, size_t words, unsigned shift) {
  for (size_t w = 0; w < words; ++w)
    if (magnitude[w]) accumulate(acc, negative, u128{magnitude[w]}, shift + unsigned(64 * w));
}

}  // namespace

SlicePlan slice_plan(const Analysis& an, size_t k) {
  SlicePlan p;
  p.depth_blocks = k == 0 ? 0 : (k + kInt8MaxDepth - 1) / kInt8MaxDepth;
  p.depth_block = p.depth_blocks ? (k + p.depth_blocks - 1) / p.depth_blocks : 0;
  if (p.depth_blocks == 0 || an.bits == 0) {  // no nonzero product: nothing to compute
    p.slices_a = p.slices_b = 1;
    return p;
  }
  const CrtPlan whole = crt_plan(p.depth_block, an.bits);
  if (whole.int8 && whole.moduli) {  // every line one slice: exact_gemm's bound and moduli
    p.slices_a = p.slices_b = 1;
    p.pair_bits = an.bits;
    p.moduli = whole.gemms;
    return p;
  }
  // The widest slices whose pair products the int8 mode takes: |entry| < 2^(53 + W), so a
  // product of a depth block is below 2^(2 (53 + W) + ceil(log2 K)).
  for (p.width = 200; p.width > 1; --p.width) {
    p.pair_bits = 2L * (53 + p.width) + ceil_log2(p.depth_block);
    const CrtPlan plan = crt_plan(p.depth_block, p.pair_bits);
    if (plan.int8 && plan.moduli) {
      p.moduli = plan.gemms;
      break;
    }
  }
  if (!p.moduli) throw std::logic_error("slice_plan: no int8 basis for slices of one bit");
  p.slices_a = slices_of(widest(an.rows), p.width);
  p.slices_b = slices_of(widest(an.cols), p.width);
  return p;
}

SlicedProduct sliced_exact(const Matrix<double>& a, const Matrix<double>& b, int threads) {
  if (a.cols != b.rows) throw std::invalid_argument("sliced_exact: inner dimensions differ");
  const int saved_threads = omp_get_max_threads();
  omp_set_num_threads(threads > 0 ? threads : saved_threads);
  const size_t m = a.rows, k = a.cols, n = b.cols;
  SlicedProduct r;
  ExactProduct& out = r.product;
  out.rows = m, out.cols = n, out.depth = k;
  fill_canaries(out, m * n);
  const Analysis an = analyse(a, b);
  SlicePlan& plan = r.plan;
  plan = slice_plan(an, k);
  // scale: every element's exact sum, two's complement over its base low_i + low_j.
  const size_t words = words_for_bits(long(widest(an.rows)) + widest(an.cols) + ceil_log2(k) + 2);
  std::vector<uint64_t> acc(m * n * words, 0);
  ScaledIntegerMatrix as, bs;
  for (size_t block = 0; block < plan.depth_blocks; ++block) {
    const size_t k0 = block * plan.depth_block, kb = std::min(plan.depth_block, k - k0);
    for (int s = 0; s < plan.slices_a; ++s) {
      if (!slice_of(a, false, an.rows, plan.width, s, k0, kb, as)) continue;
      for (int t = 0; t < plan.slices_b; ++t) {
        if (!slice_of(b, true, an.cols, plan.width, t, k0, kb, bs)) continue;
        ++plan.pairs;
        // residues, gemm, crt: the slice pair's integer product; then its exact addition.
        const unsigned offset = unsigned((s + t) * plan.width);
        crt_gemm(as, bs, plan.pair_bits, [&](const ProductBlock& pb) {
          for (size_t e = 0; e < pb.count; ++e)
            add_at({acc.data() + (pb.first + e) * words, words}, pb.negative[e], pb.magnitude + e * pb.words, pb.words, offset);
        });
      }
    }
  }
  out.moduli = plan.moduli;
  // round: once per element, exact_gemm's rounding.
#pragma omp parallel
  {
    std::vector<uint64_t> scratch;
#pragma omp for schedule(static)
    for (size_t idx = 0; idx < m * n; ++idx) {
      const LineExtent &row = an.rows[idx / n], &col = an.cols[idx % n];
      finalize({acc.data() + idx * words, words}, row.empty() || col.empty() ? 0 : row.low + col.low, scratch, out, idx);
    }
  }
  apply_specials(a, b, an, out);
  omp_set_num_threads(saved_threads);
  return r;
}

}  // namespace ozref
