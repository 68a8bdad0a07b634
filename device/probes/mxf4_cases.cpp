#include "mxf4_cases.hpp"

#include <cmath>

namespace probe {
namespace {

constexpr int kK = 64, kRowBytes = 32, kGroup = 16;

// e2m1 codes: 0-7 are +{0, 0.5, 1, 1.5, 2, 3, 4, 6}, 8-15 their negatives.
uint8_t nonzero_e2m1(ozref::Rng& r) { return uint8_t((1 + r.below(7)) | (r.below(2) << 3)); }
uint8_t any_e2m1(ozref::Rng& r) { return uint8_t(r.below(16)); }

void set_e2m1(std::vector<uint8_t>& row, size_t base, int k, uint8_t code) {
  uint8_t& byte = row[base + size_t(k) / 2];
  byte = k % 2 ? uint8_t((byte & 0x0F) | code << 4) : uint8_t((byte & 0xF0) | code);  // lower k, lower nibble
}

// Scale encodings. UE8M0: 2^(byte - 127), no zero. UE4M3: 2^e * (1 + f/8) as (e + 7) << 3 | f,
// subnormals 2^-9 * byte below 0x08, zero 0x00, the largest 448 (0x7E).
struct Scales {
  bool ue8m0;
  uint8_t big(ozref::Rng& r) const { return ue8m0 ? uint8_t(127 + 20 + r.below(80)) : uint8_t(0x7B + r.below(4)); }
  uint8_t moderate(ozref::Rng& r) const { return ue8m0 ? uint8_t(125 + r.below(5)) : uint8_t((6 + r.below(4)) << 3 | r.below(8)); }
  uint8_t small(ozref::Rng& r) const { return ue8m0 ? uint8_t(87 + r.below(20)) : uint8_t(1 + r.below(2)); }
  uint8_t least() const { return 0; }  // UE8M0: 2^-127; UE4M3: zero
  uint8_t unit() const { return ue8m0 ? 0x7F : 0x38; }  // 1
  uint8_t any(ozref::Rng& r) const { return ue8m0 ? uint8_t(67 + r.below(121)) : uint8_t(1 + r.below(126)); }
  // The alignment-depth sweep: scale exponents 28 to 41 above 2^0 (UE8M0), or the large UE4M3
  // scales (their gap to the moderate ones is smaller than F = 35: the readings agree more often).
  uint8_t deep(int step, ozref::Rng& r) const { return ue8m0 ? uint8_t(127 + 28 + step % 14) : uint8_t(0x78 + r.below(7)); }
};

// How a scale block of a row of A is filled: random nonzero codes; pairs a, -a (against B's equal
// pairs their products cancel, so every group of 16 sums to zero); zeros; one nonzero product per
// group of 16 (its first element, against a nonzero B pair: the group cannot sum to zero); any codes.
enum class Fill { Nonzero, Cancel, Zero, Single, Random };
enum class Scale { Big, Moderate, Small, Least, Deep, Any };

struct RowClass {
  const char* name;
  Fill first, middle, last;  // block 0, the blocks between, the last block
  Scale first_scale, other_scale, last_scale;
};

// The eight classes, one per row (row % 8). The readings can differ only where a zero group's
// scales exceed those of every other group (and C's exponent); the controls make sure they do not.
const RowClass kClasses[8] = {
    {"zero_sum_largest_scale", Fill::Cancel, Fill::Nonzero, Fill::Nonzero, Scale::Big, Scale::Small, Scale::Small},
    {"all_zero_largest_scale", Fill::Zero, Fill::Nonzero, Fill::Nonzero, Scale::Big, Scale::Small, Scale::Small},
    {"control_nonzero_largest_scale", Fill::Single, Fill::Single, Fill::Single, Scale::Big, Scale::Small, Scale::Small},
    {"control_zero_sum_least_scale", Fill::Cancel, Fill::Single, Fill::Single, Scale::Least, Scale::Big, Scale::Big},
    {"zero_sum_last_block", Fill::Nonzero, Fill::Nonzero, Fill::Cancel, Scale::Small, Scale::Small, Scale::Big},
    {"zero_sum_depth_sweep", Fill::Cancel, Fill::Nonzero, Fill::Nonzero, Scale::Deep, Scale::Moderate, Scale::Moderate},
    {"all_blocks_zero", Fill::Cancel, Fill::Zero, Fill::Cancel, Scale::Big, Scale::Big, Scale::Big},
    {"random", Fill::Random, Fill::Random, Fill::Random, Scale::Any, Scale::Any, Scale::Any},
};

uint8_t scale_of(Scale kind, const Scales& s, int step, ozref::Rng& r) {
  switch (kind) {
    case Scale::Big: return s.big(r);
    case Scale::Moderate: return s.moderate(r);
    case Scale::Small: return s.small(r);
    case Scale::Least: return s.least();
    case Scale::Deep: return s.deep(step, r);
    case Scale::Any: break;
  }
  return s.any(r);
}

// Row `row` of A (32 bytes at `base`) and its scales.
// `step` counts the rows of each class over the tiles (it sweeps the depth class).
void fill_a_row(std::vector<uint8_t>& a, size_t base, std::vector<uint8_t>& sa, size_t sbase, int row, int step,
                int blocks, int per_block, const Scales& s, ozref::Rng& r) {
  const RowClass& c = kClasses[row % 8];
  for (int j = 0; j < blocks; ++j) {
    const Fill fill = j == 0 ? c.first : j == blocks - 1 ? c.last : c.middle;
    sa[sbase + size_t(j)] = scale_of(j == 0 ? c.first_scale : j == blocks - 1 ? c.last_scale : c.other_scale, s, step, r);
    for (int k = j * per_block; k < (j + 1) * per_block; k += 2) {
      uint8_t v = nonzero_e2m1(r), w = nonzero_e2m1(r);
      switch (fill) {
        case Fill::Nonzero: break;
        case Fill::Cancel: w = uint8_t(v ^ 8); break;
        case Fill::Zero: v = w = 0; break;
        case Fill::Single: w = 0; v = k % kGroup ? 0 : v; break;
        case Fill::Random: v = any_e2m1(r), w = any_e2m1(r); break;
      }
      set_e2m1(a, base, k, v);
      set_e2m1(a, base, k + 1, w);
    }
  }
}

// Column `col` of B: equal pairs (the first pair of each group of 16 nonzero), and its scales by
// column kind (col % 4): all moderate; block 0 large, the others small; all small; the last block
// large, the others small.
void fill_b_col(std::vector<uint8_t>& b, size_t base, std::vector<uint8_t>& sb, size_t sbase, int col, int blocks,
                const Scales& s, ozref::Rng& r) {
  for (int k = 0; k < kK; k += 2) {
    const uint8_t v = k % kGroup == 0 || r.below(8) ? nonzero_e2m1(r) : 0;
    set_e2m1(b, base, k, v);
    set_e2m1(b, base, k + 1, v);
  }
  for (int j = 0; j < blocks; ++j) {
    const int kind = col % 4;
    const bool large = (kind == 1 && j == 0) || (kind == 3 && j == blocks - 1);
    sb[sbase + size_t(j)] = kind == 0 ? s.moderate(r) : large ? s.big(r) : s.small(r);
  }
}

uint32_t random_c(ozref::Rng& r) {
  switch (r.below(3)) {
    case 0: return 0;
    case 1: return f32_bits(r.below(2) ? -1.0f : 1.0f);
    default: return f32_bits((r.below(2) ? -1.0f : 1.0f) * std::ldexp(float(r.uniform() + 0.5), int(r.below(41)) - 20));
  }
}

}  // namespace

const Mxf4Op& mxf4_op(int id) {
  static const Mxf4Op table[kMxf4OpCount] = {
      {"tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X.ue8m0", "sm_100", 128, 128, 2, true, 16},
      {"tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X.ue4m3", "sm_100", 128, 128, 2, false, 16},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::2X.f32.e2m1.e2m1.f32.ue8m0", "sm_120", 16, 8, 64, true, 32},
      {"mma.sync.aligned.m16n8k64.row.col.kind::mxf4nvf4.block_scale.scale_vec::4X.f32.e2m1.e2m1.f32.ue4m3", "sm_120", 16, 8, 64, false, 16},
  };
  return table[id];
}

Tiles zero_group_tiles(const Mxf4Op& op, uint64_t seed) {
  ozref::Rng r(seed * 1000003 + uint64_t(&op - &mxf4_op(0)));
  const int blocks = kK / op.scale_block;
  Tiles t{op.m, op.n, kRowBytes, 1, blocks};
  const Scales s{op.ue8m0};
  // The last tile repeats the classes with every scale 1 and C in {0, +-1}: there the readings
  // agree and no scale layout matters, so if its records are not reproduced either, the probe
  // kernel is at fault, not the model.
  for (int tile = 0; tile <= op.tiles; ++tile) {
    const bool uniform = tile == op.tiles;
    std::vector<uint8_t> a(size_t(op.m) * kRowBytes, 0), b(size_t(op.n) * kRowBytes, 0);
    std::vector<uint8_t> sa(size_t(op.m) * Tiles::kScaleStride, 0), sb(size_t(op.n) * Tiles::kScaleStride, 0);
    std::vector<uint32_t> c(size_t(op.m) * op.n);
    for (int col = 0; col < op.n; ++col)
      fill_b_col(b, size_t(col) * kRowBytes, sb, size_t(col) * Tiles::kScaleStride, col, blocks, s, r);
    for (int row = 0; row < op.m; ++row) {
      fill_a_row(a, size_t(row) * kRowBytes, sa, size_t(row) * Tiles::kScaleStride, row, tile * (op.m / 8) + row / 8, blocks,
                 op.scale_block, s, r);
      t.row_tags.push_back(uniform ? "zero_group:control_unit_scales" : std::string("zero_group:") + kClasses[row % 8].name);
    }
    if (uniform)
      for (std::vector<uint8_t>* v : {&sa, &sb})
        for (size_t i = 0; i < v->size(); ++i) (*v)[i] = i % Tiles::kScaleStride < size_t(blocks) ? s.unit() : 0;
    for (auto& v : c) v = uniform ? f32_bits(float(int(r.below(3)) - 1)) : random_c(r);  // 0, +-1: no bits below 2^-35
    t.add(a, b, c, uniform ? "zero_group:unit_scales" : "zero_group");
    t.add_scales(sa, sb);
  }
  return t;
}

}  // namespace probe
