#include "mma/fp_block_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include "formats/decode.hpp"
#include "mma/execute.hpp"

namespace ozref::mma {
namespace {

constexpr size_t kLanes = 16;               // output columns per panel: one 512-bit vector of FP32
// Alignment exponent of a zero or non-finite element: any sum with it stays below every real one
// (at least -28 - 2 * 126 with scales), and two of them still fit in int16.
constexpr int16_t kNoProduct = -(1 << 14);
constexpr int kRows = 4;                     // rows sharing each load of a B panel
bool g_portable = false;

using f32v = float __attribute__((vector_size(64)));
using i32v = int32_t __attribute__((vector_size(64)));

// One operand byte decoded: its value (0 when zero or not finite) and alignment exponent.
struct Element {
  float value = 0;
  int16_t align = kNoProduct;
  bool special = false;
};

std::array<Element, 256> element_table(const InstructionSpec& s, FormatId f) {
  std::array<Element, 256> table{};
  for (unsigned byte = 0; byte < 256; ++byte) {
    const uint8_t b = uint8_t(byte);
    const DecodedElement e = decode_element(s, f, element_bits(s, std::span<const uint8_t>(&b, 1), 0));
    if (!e.v.is_finite()) {
      table[byte].special = true;
    } else if (e.v.significand) {
      const double magnitude = std::ldexp(double(e.v.significand), e.v.exponent);  // exact: few bits
      table[byte] = {float(e.v.negative ? -magnitude : magnitude), int16_t(e.align), false};
    }
  }
  return table;
}

// The operands as the kernel reads them: A by rows; B in panels of 16 columns, k-major with the
// lanes contiguous (columns past n are zero); per step, a flag per row and a lane mask per panel
// for a non-finite element or scale; per scale group (an exact group of 16, or a whole step) the
// scales as ratio * 2^align (ratio 1 and align 0 without scales; ratio 0 for a zero scale).
struct Tables {
  size_t k = 0, steps = 0, panels = 0, groups = 0, group = 0;  // groups along K, elements per group
  std::vector<float> a_value, b_value, a_ratio, b_ratio;
  std::vector<int16_t> a_align, b_align;  // 16 lanes of int16: half a vector per maximum
  std::vector<int32_t> a_scale, b_scale;
  std::vector<uint8_t> a_special;
  std::vector<uint16_t> b_special;
};

struct Scale {
  float ratio = 1;
  int32_t align = 0;
};
// A scale as execute.cpp's scale_of reads it (a zero scale aligns as 2^-126), `special` set for NaN.
Scale scale_of(FormatId format, uint8_t bits, bool& special) {
  const FormatSpec& f = format_spec(format);
  const ExactValue v = decode(f, bits);
  if (!v.is_finite()) special = true;
  if (!v.is_finite()) return {};
  if (!v.significand) return {0, -126};
  return {float(std::ldexp(double(v.significand), -f.fraction_bits)), v.exponent + f.fraction_bits};
}

// The code of element kk of a row of operand bytes (`row` bytes per row).
uint8_t element_code(const InstructionSpec& s, const uint8_t* row, size_t kk) {
  return s.packing == Packing::PackedFp4 ? uint8_t((row[kk / 2] >> (4 * (kk % 2))) & 0xF) : row[kk];
}

Tables make_tables(const InstructionSpec& s, const GemmOperands& x) {
  Tables t;
  t.k = x.k;
  t.steps = x.k / size_t(s.k);
  t.panels = (x.n + kLanes - 1) / kLanes;
  t.group = size_t(s.exact_group ? s.exact_group : s.k);
  t.groups = x.k / t.group;
  const size_t row = operand_bytes(s) * t.steps, scales = s.kind == Kind::BlockScaled ? x.k / size_t(s.scale_block) : 0;
  const std::array<Element, 256> ta = element_table(s, s.a_format), tb = element_table(s, s.b_format);
  t.a_value.assign(x.m * t.k, 0);
  t.a_align.assign(x.m * t.k, kNoProduct);
  t.a_scale.assign(x.m * t.groups, 0);
  t.a_ratio.assign(x.m * t.groups, 1);
  t.a_special.assign(x.m * t.steps, 0);
  t.b_value.assign(t.panels * t.k * kLanes, 0);
  t.b_align.assign(t.panels * t.k * kLanes, kNoProduct);
  t.b_scale.assign(t.panels * t.groups * kLanes, 0);
  t.b_ratio.assign(t.panels * t.groups * kLanes, 1);
  t.b_special.assign(t.panels * t.steps, 0);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < x.m; ++i)
    for (size_t kk = 0; kk < t.k; ++kk) {
      const Element& e = ta[element_code(s, &x.a[i * row], kk)];
      t.a_value[i * t.k + kk] = e.value;
      t.a_align[i * t.k + kk] = e.align;
      bool special = e.special;
      if (scales && kk % t.group == 0) {
        const Scale sc = scale_of(s.scale_format, x.scale_a[i * scales + kk / size_t(s.scale_block)], special);
        t.a_scale[i * t.groups + kk / t.group] = sc.align;
        t.a_ratio[i * t.groups + kk / t.group] = sc.ratio;
      }
      if (special) t.a_special[i * t.steps + kk / size_t(s.k)] = 1;
    }
#pragma omp parallel for schedule(static)
  for (size_t p = 0; p < t.panels; ++p)
    for (size_t l = 0; l < kLanes && p * kLanes + l < x.n; ++l) {
      const size_t j = p * kLanes + l;
      for (size_t kk = 0; kk < t.k; ++kk) {
        const Element& e = tb[element_code(s, &x.b[j * row], kk)];
        const size_t at = (p * t.k + kk) * kLanes + l, step = kk / size_t(s.k);
        t.b_value[at] = e.value;
        t.b_align[at] = e.align;
        bool special = e.special;
        if (scales && kk % t.group == 0) {
          const Scale sc = scale_of(s.scale_format, x.scale_b[j * scales + kk / size_t(s.scale_block)], special);
          t.b_scale[(p * t.groups + kk / t.group) * kLanes + l] = sc.align;
          t.b_ratio[(p * t.groups + kk / t.group) * kLanes + l] = sc.ratio;
        }
        if (special) t.b_special[p * t.steps + step] |= uint16_t(1u << l);
      }
    }
  return t;
}

// 16 output lanes: FP32 bit patterns and exponents as int32; FP64 values as two 8-lane halves.
// Vectors are only ever passed by reference (by value they would change the calling convention
// between the AVX-512 and the portable build).
using f32h = float __attribute__((vector_size(32)));
using i32h = int32_t __attribute__((vector_size(32)));
using f64v = double __attribute__((vector_size(64)));
using i16h = int16_t __attribute__((vector_size(32)));
using i64v = int64_t __attribute__((vector_size(64)));
struct Wide {
  f64v lo, hi;
};

[[gnu::always_inline]] inline void load(i32v& v, const int32_t* p) { std::memcpy(&v, p, sizeof v); }
[[gnu::always_inline]] inline void load(f32v& v, const float* p) { std::memcpy(&v, p, sizeof v); }
[[gnu::always_inline]] inline void max_into(i32v& a, const i32v& b) { a = a > b ? a : b; }
[[gnu::always_inline]] inline void widen(Wide& out, const i32v& v) {
  out.lo = __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7), f64v);
  out.hi = __builtin_convertvector(__builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15), f64v);
}
[[gnu::always_inline]] inline void widen(Wide& out, const f32v& v) {
  out.lo = __builtin_convertvector(__builtin_shufflevector(v, v, 0, 1, 2, 3, 4, 5, 6, 7), f64v);
  out.hi = __builtin_convertvector(__builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15), f64v);
}
// 2^e for integer lanes e (|e| <= 1022), exactly.
[[gnu::always_inline]] inline void power_of_two(f64v& out, const i32h& e) {
  out = (f64v)((__builtin_convertvector(e, i64v) + 1023) << 52);
}
[[gnu::always_inline]] inline void power_of_two(Wide& out, const i32v& e) {
  power_of_two(out.lo, __builtin_shufflevector(e, e, 0, 1, 2, 3, 4, 5, 6, 7));
  power_of_two(out.hi, __builtin_shufflevector(e, e, 8, 9, 10, 11, 12, 13, 14, 15));
}
[[gnu::always_inline]] inline bool any_lane(const i32v& v) {
  i32v x = v | __builtin_shufflevector(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
  x |= __builtin_shufflevector(x, x, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11);
  x |= __builtin_shufflevector(x, x, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  return (x[0] | x[1]) != 0;
}
// -1 where FP32 bits are Inf or NaN, else 0 (by arithmetic: g++ 12 fails on a compare here).
[[gnu::always_inline]] inline void or_not_finite(i32v& mask, const i32v& bits) { mask |= -((((bits >> 23) & 0xFF) + 1) >> 8); }
[[gnu::always_inline]] inline void magnitude(f64v& out, const f64v& v) { out = (f64v)((i64v)v & INT64_MAX); }
// v (exact, 8 lanes) rounded to FP32 bits: nearest-even, or toward zero (one ulp down in
// magnitude where nearest-even went up); `bad` marks lanes at or beyond 2^127 or not finite.
[[gnu::always_inline]] inline void round_half(i32h& bits, i32h& bad, const f64v& v, bool toward_zero) {
  const f32h f = __builtin_convertvector(v, f32h);
  f64v av, af;
  magnitude(av, v);
  magnitude(af, __builtin_convertvector(f, f64v));
  bits = (i32h)f;
  if (toward_zero) bits += __builtin_convertvector(af > av, i32h);  // -1 where |f| > |v|
  bad = __builtin_convertvector(!(av < 0x1p127), i32h);
}

// Where the kernel works: rows i0.. of A against panel p, in step `step`.
struct Place {
  const InstructionSpec& s;
  const Tables& t;
  size_t i0, p, step;
};

// Pass 1 of a fused block: per lane, the largest alignment exponent of its products (int16 lanes).
template <int R>
[[gnu::always_inline]] inline void product_alignment(const Place& at, const std::vector<int>& block, i32v (&out)[R]) {
  i16h e[R];
  for (int r = 0; r < R; ++r) e[r] = i16h{} + int16_t(2 * kNoProduct);
  const size_t base = at.step * size_t(at.s.k);
  for (int kk : block) {
    i16h b;
    std::memcpy(&b, &at.t.b_align[(at.p * at.t.k + base + size_t(kk)) * kLanes], sizeof b);
    for (int r = 0; r < R; ++r) {
      const i16h sum = b + at.t.a_align[(at.i0 + size_t(r)) * at.t.k + base + size_t(kk)];
      e[r] = e[r] > sum ? e[r] : sum;
    }
  }
  for (int r = 0; r < R; ++r) out[r] = __builtin_convertvector(e[r], i32v);
}

// Pass 2: per lane, the sum of trunc(a * b * scale) over the block's products. Each product is
// below 2^(F + 2) in magnitude: chunks of 2^(29 - F) products are summed exactly in int32, the
// chunks in FP64 (exact: below 2^53).
template <int R>
[[gnu::always_inline]] inline void truncated_sum(const Place& at, const std::vector<int>& block, const f32v (&scale)[R], Wide (&total)[R]) {
  for (int r = 0; r < R; ++r) total[r].lo = total[r].hi = f64v{};
  const size_t base = at.step * size_t(at.s.k), chunk = size_t(1) << (29 - at.s.block.fraction_bits);
  for (size_t c0 = 0; c0 < block.size(); c0 += chunk) {
    i32v part[R];
    for (int r = 0; r < R; ++r) part[r] = i32v{};
    for (size_t c = c0; c < std::min(block.size(), c0 + chunk); ++c) {
      const size_t kk = base + size_t(block[c]);
      f32v b;
      load(b, &at.t.b_value[(at.p * at.t.k + kk) * kLanes]);
      for (int r = 0; r < R; ++r) part[r] += __builtin_convertvector(b * at.t.a_value[(at.i0 + size_t(r)) * at.t.k + kk] * scale[r], i32v);
    }
    for (int r = 0; r < R; ++r) {
      Wide w;
      widen(w, part[r]);
      total[r].lo += w.lo;
      total[r].hi += w.hi;
    }
  }
}

// The end of a block on every lane: C (FP32 bits) truncated at 2^(e_max - F) and added to the
// products' sum `total` (in units of 2^(e_max - F)), normalised and rounded once; c becomes the
// block's FP32 result. Lanes whose result reaches 2^127 are marked in `slow` (-1).
template <int R>
[[gnu::always_inline]] inline void finish_block(const FusedBlock& fb, const i32v (&e_max)[R], const Wide (&total)[R], i32v (&c)[R],
                                                i32v (&slow)[R]) {
  const int f = fb.fraction_bits;
  for (int r = 0; r < R; ++r) {
    const i32v finite = (c[r] & 0x7F800000) != 0x7F800000;
    Wide cv, up, down;
    widen(cv, (f32v)(c[r] & finite));  // a non-finite C (a slow lane) as 0
    power_of_two(up, f - e_max[r]);
    power_of_two(down, e_max[r] - f);
    const f64v lo = (total[r].lo + __builtin_convertvector(__builtin_convertvector(cv.lo * up.lo, i64v), f64v)) * down.lo;
    const f64v hi = (total[r].hi + __builtin_convertvector(__builtin_convertvector(cv.hi * up.hi, i64v), f64v)) * down.hi;
    i32h bits_lo, bits_hi, bad_lo, bad_hi;
    round_half(bits_lo, bad_lo, lo, fb.rounding == OutputRounding::TowardZero);
    round_half(bits_hi, bad_hi, hi, fb.rounding == OutputRounding::TowardZero);
    c[r] = __builtin_shufflevector(bits_lo, bits_hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) &
           int32_t(~((1u << (23 - fb.output_fraction_bits)) - 1));
    if (fb.zero_result_positive) c[r] &= (c[r] & 0x7FFFFFFF) != 0;  // -0 to +0
    slow[r] |= __builtin_shufflevector(bad_lo, bad_hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  }
}

// e_max over the products' maximum (plus the scale exponents), C's alignment exponent (a zero C
// counts as 2^-126) and the block's floor.
template <int R>
[[gnu::always_inline]] inline void raise_to_c_and_floor(const FusedBlock& fb, const i32v (&c)[R], i32v (&e_max)[R]) {
  const i32v one = i32v{} + 1, floor = i32v{} + fb.exponent_floor;
  for (int r = 0; r < R; ++r) {
    i32v c_align = (c[r] >> 23) & 0xFF;
    max_into(c_align, one);
    max_into(e_max[r], c_align - 127);
    max_into(e_max[r], floor);
  }
}

// One fused block of single products on every lane: c (FP32 bits) in, the block's result out.
template <int R>
[[gnu::always_inline]] inline void fused_block(const Place& at, const std::vector<int>& block, const i32v (&scale_exp)[R],
                                               i32v (&c)[R], i32v (&slow)[R]) {
  const FusedBlock& fb = at.s.block;
  const i32v low = i32v{} - 126, high = i32v{} + 127;
  i32v e_max[R];
  f32v scale[R];
  Wide total[R];
  product_alignment<R>(at, block, e_max);
  for (int r = 0; r < R; ++r) e_max[r] += scale_exp[r];
  raise_to_c_and_floor<R>(fb, c, e_max);
  for (int r = 0; r < R; ++r) {
    // 2^(scale + F - e_max); clamped to FP32's range, which it leaves only when every product is zero.
    i32v x = scale_exp[r] + fb.fraction_bits - e_max[r];
    max_into(x, low);
    x = x < high ? x : high;
    scale[r] = (f32v)((x + 127) << 23);
  }
  truncated_sum<R>(at, block, scale, total);
  finish_block<R>(fb, e_max, total, c, slow);
}

// An instruction of exact groups (mxf4, mxf4nvf4, E2M1 only) on every lane: each group's 16
// products summed exactly in FP32 (multiples of 1/4 below 2^10) and times its scales' ratios
// (exact: at most 20 bits); groups aligned on their scale exponents only; a group worth zero
// raises e_max only where the spec says so (zero_group_aligns); each group truncated in FP64.
template <int R>
[[gnu::always_inline]] inline void grouped_block(const Place& at, i32v (&c)[R], i32v (&slow)[R]) {
  constexpr size_t kMaxGroups = 4;
  const InstructionSpec& s = at.s;
  const size_t per_step = size_t(s.k / s.exact_group), base = at.step * size_t(s.k);
  f32v value[kMaxGroups][R];
  i32v align[kMaxGroups][R], e_max[R];
  const i32v none = i32v{} + 2 * kNoProduct;
  for (int r = 0; r < R; ++r) e_max[r] = i32v{} + 2 * kNoProduct;
  for (size_t g = 0; g < per_step; ++g) {
    const size_t group = at.step * per_step + g;
    for (int r = 0; r < R; ++r) value[g][r] = f32v{};
    for (size_t kk = base + g * size_t(s.exact_group); kk < base + (g + 1) * size_t(s.exact_group); ++kk) {
      f32v b;
      load(b, &at.t.b_value[(at.p * at.t.k + kk) * kLanes]);
      for (int r = 0; r < R; ++r) value[g][r] += b * at.t.a_value[(at.i0 + size_t(r)) * at.t.k + kk];
    }
    i32v b_align;
    f32v b_ratio;
    load(b_align, &at.t.b_scale[(at.p * at.t.groups + group) * kLanes]);
    load(b_ratio, &at.t.b_ratio[(at.p * at.t.groups + group) * kLanes]);
    for (int r = 0; r < R; ++r) {
      value[g][r] *= b_ratio * at.t.a_ratio[(at.i0 + size_t(r)) * at.t.groups + group];
      align[g][r] = b_align + at.t.a_scale[(at.i0 + size_t(r)) * at.t.groups + group];
      const i32v counts = (value[g][r] != f32v{}) | (i32v{} - int32_t(s.zero_group_aligns));
      max_into(e_max[r], (align[g][r] & counts) | (none & ~counts));
    }
  }
  raise_to_c_and_floor<R>(s.block, c, e_max);
  Wide total[R];
  for (int r = 0; r < R; ++r) {
    total[r].lo = total[r].hi = f64v{};
    for (size_t g = 0; g < per_step; ++g) {
      Wide v, scale;
      widen(v, value[g][r]);
      power_of_two(scale, align[g][r] + s.block.fraction_bits - e_max[r]);
      total[r].lo += __builtin_convertvector(__builtin_convertvector(v.lo * scale.lo, i64v), f64v);
      total[r].hi += __builtin_convertvector(__builtin_convertvector(v.hi * scale.hi, i64v), f64v);
    }
  }
  finish_block<R>(s.block, e_max, total, c, slow);
}

// Rows i0..i0+R-1 of D against panel p, every step; lanes of a step with a non-finite operand,
// scale or C, or a result out of the fast path's range, recomputed by execute().
template <int R>
[[gnu::always_inline]] inline void rows_on_panel(const InstructionSpec& s, const Tables& t, const GemmOperands& x, size_t i0, size_t p,
                                                 std::span<uint32_t> d) {
  i32v acc[R], c_in[R], blk[R], slow[R], scale_exp[R];
  const size_t lanes = std::min(kLanes, x.n - p * kLanes);
  for (int r = 0; r < R; ++r) {
    acc[r] = i32v{};
    if (!x.c.empty())
      for (size_t l = 0; l < lanes; ++l) acc[r][l] = int32_t(x.c[(i0 + size_t(r)) * x.n + p * kLanes + l]);
  }
  for (size_t st = 0; st < t.steps; ++st) {
    const Place at{s, t, i0, p, st};
    for (int r = 0; r < R; ++r) {
      c_in[r] = acc[r];
      slow[r] = i32v{};
      or_not_finite(slow[r], acc[r]);
      blk[r] = s.c_added_after ? i32v{} : acc[r];
      load(scale_exp[r], &t.b_scale[(p * t.groups + st) * kLanes]);  // one scale group per step here
      scale_exp[r] += t.a_scale[(i0 + size_t(r)) * t.groups + st];
    }
    if (s.exact_group) grouped_block<R>(at, blk, slow);
    else
      for (const std::vector<int>& block : s.blocks) fused_block<R>(at, block, scale_exp, blk, slow);
    for (int r = 0; r < R; ++r) {
      // The trailing FADD of the user's C, nearest-even (fp32_add_nearest on finite values).
      acc[r] = s.c_added_after ? (i32v)((f32v)blk[r] + (f32v)c_in[r]) : blk[r];
      or_not_finite(slow[r], acc[r]);
      const unsigned special = t.b_special[p * t.steps + st] | (t.a_special[(i0 + size_t(r)) * t.steps + st] ? 0xFFFFu : 0u);
      if (!special && !any_lane(slow[r])) continue;
      for (size_t l = 0; l < lanes; ++l)
        if (slow[r][l] || (special >> l & 1))
          acc[r][l] = int32_t(execute(s, step_operands(s, x, i0 + size_t(r), p * kLanes + l, st, uint32_t(c_in[r][l]))));
    }
  }
  for (int r = 0; r < R; ++r)
    for (size_t l = 0; l < lanes; ++l) d[(i0 + size_t(r)) * x.n + p * kLanes + l] = uint32_t(acc[r][l]);
}

[[gnu::always_inline]] inline void panel(const InstructionSpec& s, const Tables& t, const GemmOperands& x, size_t p, std::span<uint32_t> d) {
  size_t i = 0;
  for (; i + kRows <= x.m; i += kRows) rows_on_panel<kRows>(s, t, x, i, p, d);
  for (; i < x.m; ++i) rows_on_panel<1>(s, t, x, i, p, d);
}

__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) void panel_avx512(const InstructionSpec& s, const Tables& t,
                                                                               const GemmOperands& x, size_t p, std::span<uint32_t> d) {
  panel(s, t, x, p, d);
}

void panel_portable(const InstructionSpec& s, const Tables& t, const GemmOperands& x, size_t p, std::span<uint32_t> d) {
  panel(s, t, x, p, d);
}

bool byte_fp8_or_fp4(FormatId f) { return f == FormatId::E4M3 || f == FormatId::E5M2 || f == FormatId::E2M1; }

}  // namespace

bool fp_block_gemm_applies(const InstructionSpec& s) {
  if (s.kind == Kind::Integer || !byte_fp8_or_fp4(s.a_format) || !byte_fp8_or_fp4(s.b_format)) return false;
  if (s.block.fraction_bits == FusedBlock::kExact) return false;
  // The lanes count a zero C as 2^-126, as a floor of -126 does; a lower floor differs only where
  // products can fall below 2^-126 (scaled blocks, or formats no byte path takes).
  if (s.block.exponent_floor < -126 && (s.kind == Kind::BlockScaled || floor_observable(s.a_format, s.b_format))) return false;
  if (s.block.c_stage_sum_bits || s.nan_bits != kCanonicalNaN) return false;  // AMD's datapath: the chain only
  if (s.kind == Kind::BlockScaled && s.exact_group)  // groups of E2M1 products, summed in FP64
    return s.a_format == FormatId::E2M1 && s.b_format == FormatId::E2M1 && s.k / s.exact_group <= 4 &&
           s.scale_block % s.exact_group == 0 && s.block.fraction_bits <= 38 && s.blocks.size() == 1 && !s.c_added_after;
  if (s.packing != Packing::Byte && s.packing != Packing::PaddedFp4) return false;
  if (s.block.fraction_bits > 25) return false;  // int32 sums of truncated products
  return s.kind == Kind::Float || (s.scale_format == FormatId::UE8M0 && s.scale_block == s.k);
}

std::vector<const InstructionSpec*> fp_block_gemm_specs() {
  std::vector<const InstructionSpec*> out;
  for (const std::string& name : arch_names())
    for (const InstructionSpec& s : arch(name).instructions)
      if (fp_block_gemm_applies(s)) out.push_back(&s);
  return out;
}

bool cpu_has_avx512_fp_block() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
                          __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return has;
}

void force_portable_fp_block_gemm(bool portable) { g_portable = portable; }

bool fp_block_gemm(const InstructionSpec& s, const GemmOperands& x, int threads, std::span<uint32_t> d) {
  if (!fp_block_gemm_applies(s)) return false;
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  const int saved = omp_get_max_threads();
  omp_set_num_threads(nt);
  const Tables t = make_tables(s, x);
  const bool avx512 = cpu_has_avx512_fp_block() && !g_portable;
#pragma omp parallel for schedule(dynamic, 1)
  for (size_t p = 0; p < t.panels; ++p) {
    if (avx512) panel_avx512(s, t, x, p, d);
    else panel_portable(s, t, x, p, d);
  }
  omp_set_num_threads(saved);
  return true;
}

}  // namespace ozref::mma
