// mma_probe: runs the tensor-core instructions of sm_90 on the GPU over targeted probes and random
// sweeps, and writes one MMA trace record (docs/architecture.md's JSON Lines) per output element.
// Usage: mma_probe OUT_DIR [seed]. One file per instruction: OUT_DIR/<short name>.jsonl, and
// OUT_DIR/bf16_overflow.jsonl: bf16 mma.sync with products and sums beyond FP32's range.
// Self-contained on purpose (CUDA runtime and libstdc++ only) so that it runs on a bare GPU host.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "common/rng.hpp"
#include "mma_kernels.cuh"
#include "overflow_tiles.hpp"
#include "probe_tiles.hpp"
#include "probe_util.cuh"

using ozref::Rng;

namespace {

using probe::Fmt;
using probe::Tiles;
using probe::bias;
using probe::exp_bits;
using probe::f32_bits;
using probe::frac_bits;
using probe::make;
using probe::put;
using probe::width;

bool is_special(Fmt f, uint32_t v) {
  switch (f) {
    case Fmt::E4M3: return (v & 0x7F) == 0x7F;
    case Fmt::E5M2: return (v & 0x7C) == 0x7C;
    case Fmt::F16: return (v & 0x7C00) == 0x7C00;
    case Fmt::BF16: return (v & 0x7F80) == 0x7F80;
    default: return false;
  }
}

// A finite element with unbiased exponent in [lo, hi] (clamped to the format), random fraction.
uint32_t element_in(Fmt f, Rng& r, int lo, int hi) {
  for (;;) {
    const int e = lo + int(r.below(uint64_t(hi - lo + 1))) + bias(f);
    const int emax = (1 << exp_bits(f)) - 1;
    if (e < 0 || e > emax) continue;
    const uint32_t v = make(f, r.below(2), e, uint32_t(r.next()));
    if (!is_special(f, v)) return v;
  }
}

uint32_t random_finite(Fmt f, Rng& r) {
  for (;;) {
    const uint32_t v = uint32_t(r.next()) & ((1u << width(f)) - 1);
    if (!is_special(f, v)) return v;
  }
}

uint32_t encode_int(Fmt f, int x) {  // small integers, exactly (|x| <= 16 for e4m3/e5m2 ranges used)
  if (x == 0) return 0;
  const bool neg = x < 0;
  int mag = neg ? -x : x, e = 0;
  while ((mag >> e) > 1) ++e;
  const uint32_t frac = uint32_t(mag - (1 << e)) << frac_bits(f) >> e;
  return make(f, neg, e + bias(f), frac);
}


uint32_t random_c(Rng& r, int lo, int hi) {
  if (r.below(8) == 0) return r.below(2) ? 0x80000000u : 0u;
  const double v = std::ldexp(r.uniform() + 0.5, lo + int(r.below(uint64_t(hi - lo + 1))));
  return f32_bits(float(r.below(2) ? -v : v));
}

// Floating-point tiles: random sweeps and targeted probes.
void fp_tiles(Tiles& t, Fmt f, Rng& r, int per_class) {
  const int m = t.m, n = t.n, k = t.k, eb = t.eb;
  std::vector<uint8_t> a(size_t(m) * k * eb), b(size_t(n) * k * eb);
  std::vector<uint32_t> c(size_t(m) * n);
  const int elo = 1 - bias(f) - frac_bits(f), ehi = std::min(bias(f), 15);
  auto fill = [&](auto gen_a, auto gen_b, auto gen_c, const char* tag, int tiles) {
    for (int i = 0; i < tiles; ++i) {
      for (int x = 0; x < m * k; ++x) put(a, x, eb, gen_a(x));
      for (int x = 0; x < n * k; ++x) put(b, x, eb, gen_b(x));
      for (auto& v : c) v = gen_c();
      t.add(a, b, c, tag);
    }
  };
  auto rc = [&] { return random_c(r, -8, 12); };
  fill([&](int) { return random_finite(f, r); }, [&](int) { return random_finite(f, r); },
       [&] { return random_c(r, -20, 20); }, "random_full_range", per_class);
  fill([&](int) { return element_in(f, r, -3, 3); }, [&](int) { return element_in(f, r, -3, 3); }, rc,
       "random_near_one", per_class);
  fill([&](int) { return r.below(8) ? 0u : random_finite(f, r); }, [&](int) { return random_finite(f, r); }, rc,
       "sparse", per_class);
  // Subnormal operands (biased exponent 0) mixed with the smallest normals.
  auto tiny = [&](int) { return make(f, r.below(2), int(r.below(3)) == 0 ? 1 : 0, uint32_t(r.next())); };
  fill(tiny, [&](int) { return element_in(f, r, -2, 2); },
       [&] { return r.below(2) ? 0u : random_c(r, elo - 6, elo); }, "subnormal", per_class);
  // Cancellation: pairs of equal products of opposite sign, perturbed in a few places.
  for (int i = 0; i < per_class; ++i) {
    for (int row = 0; row < m; ++row)
      for (int kk = 0; kk < k; kk += 2) {
        const uint32_t v = element_in(f, r, -4, 6);
        put(a, size_t(row) * k + kk, eb, v);
        put(a, size_t(row) * k + kk + 1, eb, r.below(6) ? v ^ (1u << (width(f) - 1)) : element_in(f, r, -4, 6));
      }
    for (int col = 0; col < n; ++col)
      for (int kk = 0; kk < k; kk += 2) {
        const uint32_t v = element_in(f, r, -4, 6);
        put(b, size_t(col) * k + kk, eb, v);
        put(b, size_t(col) * k + kk + 1, eb, v);
      }
    for (auto& v : c) v = random_c(r, -12, 4);
    t.add(a, b, c, "cancellation");
  }
  // Integers whose exact sums fit in FP32 with C up to 2^24.
  fill([&](int) { return encode_int(f, int(r.below(17)) - 8); }, [&](int) { return encode_int(f, int(r.below(17)) - 8); },
       [&] { return f32_bits(float(int64_t(r.below(1u << 25)) - (1 << 24))); }, "integers_c_near_2^24", per_class);
  // Exponent gaps: one large product and many small ones, the gap swept over the tile index.
  for (int i = 0; i < per_class; ++i) {
    const int gap = 4 + (i * 37) % (2 * ehi + 6);
    for (int row = 0; row < m; ++row)
      for (int kk = 0; kk < k; ++kk)
        put(a, size_t(row) * k + kk, eb, kk == row % k ? element_in(f, r, ehi - 1, ehi) : element_in(f, r, ehi - gap / 2 - 1, ehi - gap / 2 + 1));
    for (int col = 0; col < n; ++col)
      for (int kk = 0; kk < k; ++kk)
        put(b, size_t(col) * k + kk, eb, kk % 2 ? element_in(f, r, -1, 0) : element_in(f, r, ehi - gap / 2 - 1, ehi - gap / 2));
    for (auto& v : c) v = r.below(3) ? 0u : random_c(r, 2 * ehi - gap - 4, 2 * ehi);
    t.add(a, b, c, "exponent_gap");
  }
  // Special values: NaN and infinity encodings where the format has them, and special C.
  fill([&](int) { return r.below(40) ? random_finite(f, r) : uint32_t(r.next()) & ((1u << width(f)) - 1); },
       [&](int) { return r.below(40) ? random_finite(f, r) : uint32_t(r.next()) & ((1u << width(f)) - 1); },
       [&] { const uint32_t s[] = {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F7FFFFFu};
             return r.below(10) ? rc() : s[r.below(4)]; }, "specials", std::max(1, per_class / 2));
  // Targeted: FPRev-style fusion order. X*X and -X*X at positions p and q (or X*X in C), y*y
  // elsewhere; the surviving multiple of y^2 shows which products were fused with the large pair.
  {
    const uint32_t X = make(f, false, bias(f) + std::min(7, ehi - 1), 0), Y = make(f, false, bias(f) - 3, 0);
    const uint32_t negX = X | (1u << (width(f) - 1));
    int tiles = 0;
    for (int p = 0; p < k && tiles < 4 * per_class; ++p)
      for (int q = p + 1; q < k && tiles < 4 * per_class; q += 3) {
        for (int row = 0; row < m; ++row)
          for (int kk = 0; kk < k; ++kk) put(a, size_t(row) * k + kk, eb, kk == p ? X : kk == q ? negX : Y);
        for (int col = 0; col < n; ++col)
          for (int kk = 0; kk < k; ++kk) put(b, size_t(col) * k + kk, eb, (kk == p || kk == q) ? X : Y);
        for (auto& v : c) v = 0;
        t.add(a, b, c, "probe:fusion_order");
        ++tiles;
      }
  }
  // Targeted: alignment depth. C = 1 (or 2^e) plus one product 2^-j: where the result stops
  // changing tells how many fraction bits survive alignment.
  for (int j = 0; j < per_class; ++j) {
    for (int row = 0; row < m; ++row)
      for (int kk = 0; kk < k; ++kk) {
        const int e = -((row + j * m) % 24) / 2 - 1;
        put(a, size_t(row) * k + kk, eb, kk == 0 ? make(f, row % 3 == 0, std::max(1, bias(f) + e), 1 + row) : 0u);
      }
    for (int col = 0; col < n; ++col)
      for (int kk = 0; kk < k; ++kk) put(b, size_t(col) * k + kk, eb, kk == 0 ? make(f, false, std::max(1, bias(f) - col - 1), col) : 0u);
    for (int x = 0; x < m * n; ++x) c[x] = f32_bits(std::ldexp(1.0f + float(x % 7) / 8, (x % 5) - 2));
    t.add(a, b, c, "probe:alignment");
  }
  // Targeted: carries. Many products of (2 - ulp) with C of the same size.
  for (int i = 0; i < std::max(1, per_class / 2); ++i) {
    const uint32_t big = make(f, false, bias(f), ~0u);
    for (int x = 0; x < m * k; ++x) put(a, x, eb, r.below(4) ? big : make(f, false, bias(f), uint32_t(r.next())));
    for (int x = 0; x < n * k; ++x) put(b, x, eb, big);
    for (auto& v : c) v = f32_bits(1.875f * float(1 + r.below(4)));
    t.add(a, b, c, "probe:carry");
  }
}

void int_tiles(Tiles& t, bool a_signed, bool b_signed, Rng& r, int per_class) {
  const int m = t.m, n = t.n, k = t.k;
  std::vector<uint8_t> a(size_t(m) * k), b(size_t(n) * k);
  std::vector<uint32_t> c(size_t(m) * n);
  auto extreme = [&](bool s) { return uint8_t(s ? (r.below(2) ? 0x80 : 0x7F) : 0xFF); };
  for (int cls = 0; cls < 4; ++cls) {
    for (int i = 0; i < per_class; ++i) {
      for (auto& v : a) v = cls == 1 ? extreme(a_signed) : uint8_t(r.next());
      for (auto& v : b) v = cls == 1 ? extreme(b_signed) : uint8_t(r.next());
      for (auto& v : c) {
        switch (cls) {
          case 0: v = uint32_t(r.next()) >> r.below(32); break;                  // random magnitudes
          case 1: v = r.below(2) ? 0x7FFFFFFFu - uint32_t(r.below(1 << 22)) : 0x80000000u + uint32_t(r.below(1 << 22)); break;
          case 2: v = uint32_t(r.next()); break;                                  // full range
          default: v = r.below(2) ? 0x7FF00000u + uint32_t(r.below(1 << 20)) : 0x80000000u + uint32_t(r.below(1 << 20)); break;
        }
      }
      static const char* tags[] = {"random", "extremes_c_near_limits", "random_full_c", "near_overflow"};
      t.add(a, b, c, tags[cls]);
    }
  }
}


constexpr uint32_t kCanary = 0xA5A5A5A5u;

// Every tile of `t` as instruction `op` on the device (D pre-filled with the canary): D, tile-major.
std::vector<uint32_t> run_tiles(int op, const Tiles& t) {
  const probe::DeviceBuffer<uint8_t> a(t.a), b(t.b);
  const probe::DeviceBuffer<uint32_t> c(t.c), d(std::vector<uint32_t>(t.c.size(), kCanary));
  probe::launch(op, t.count, a.ptr, b.ptr, c.ptr, d.ptr);
  probe::finish_launch();
  return d.copy_back(t.c.size());
}

bool report(const std::string& path, const char* ptx, const Tiles& t, const std::vector<uint32_t>& d, const std::string& arch) {
  size_t canaries = 0;
  return probe::write_and_report(path, ptx, t, d, arch, kCanary, canaries);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: mma_probe OUT_DIR [seed]\n");
    return 2;
  }
  const std::string out = argv[1];
  const uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 20261130;
  cudaDeviceProp prop{};
  if (!probe::first_device("mma_probe", prop)) return 77;
  const std::string arch = probe::arch_name(prop);
  std::printf("mma_probe: %s (%s), seed %llu\n", prop.name, arch.c_str(), (unsigned long long)seed);
  static const char* names[probe::kOpCount] = {"int8_s8s8", "int8_s8u8", "int8_u8s8", "int8_u8u8",
                                               "int8_s8s8_satfinite", "int8_s8u8_satfinite", "int8_u8s8_satfinite", "int8_u8u8_satfinite",
                                               "fp8_e4m3_mma_sync", "fp8_e5m2_mma_sync", "fp16_mma_sync", "bf16_mma_sync",
                                               "fp8_e4m3_wgmma", "fp8_e5m2_wgmma"};
  for (int op = 0; op < probe::kOpCount; ++op) {
    const probe::OpInfo& info = probe::op_info(op);
    Rng r(seed * 1000003 + op);
    Tiles t{info.m, info.n, info.k, info.element_bytes};
    const bool wg = op >= probe::kWgmmaE4M3;
    const int per_class = wg ? 4 : 16;
    if (info.integer) {
      int_tiles(t, op % 4 < 2, op % 2 == 0, r, per_class);
    } else {
      const Fmt f = (op == probe::kE4M3 || op == probe::kWgmmaE4M3) ? Fmt::E4M3
                    : (op == probe::kE5M2 || op == probe::kWgmmaE5M2) ? Fmt::E5M2
                    : op == probe::kF16 ? Fmt::F16 : Fmt::BF16;
      fp_tiles(t, f, r, per_class);
    }
    const std::vector<uint32_t> d = run_tiles(op, t);
    if (!report(out + "/" + names[op] + ".jsonl", info.ptx, t, d, arch)) return 3;
  }
  // HMMA overflow inside the fused sum (bf16 products beyond FP32's range; docs/models.md).
  Rng r(seed * 1000003 + probe::kOpCount);
  Tiles t{16, 8, 16, 2};
  probe::overflow_tiles(t, r);
  const std::vector<uint32_t> d = run_tiles(probe::kBF16, t);
  return report(out + "/bf16_overflow.jsonl", probe::op_info(probe::kBF16).ptx, t, d, arch) ? 0 : 3;
}
