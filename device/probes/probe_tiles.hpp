// Host side of the probe programs, plain C++ (the tests build the probes' case tables too): the
// tiles of one instruction (operand bytes, block scales, C, a tag per tile), element encodings
// by format, and the writer of one MMA trace record per output element (docs/architecture.md,
// "MMA trace records").
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace probe {

// Appends v as `digits` lowercase hex digits.
inline void hex(std::string& s, uint32_t v, int digits) {
  static const char* d = "0123456789abcdef";
  for (int i = digits - 1; i >= 0; --i) s += d[(v >> (4 * i)) & 15];
}

struct Tiles {
  int m, n, k, eb;  // k: elements per row (packed FP4: bytes per row, eb = 1); eb: bytes per element
  int scales = 0;   // block-scaled: scale bytes per row of A and column of B in the records
  static constexpr int kScaleStride = 4;  // scale bytes kept per row (the 32-bit register or TMEM word)
  int count = 0;
  Tiles(int m_, int n_, int k_, int eb_, int scales_ = 0) : m(m_), n(n_), k(k_), eb(eb_), scales(scales_) {}
  std::vector<uint8_t> a, b;              // per tile: m*k*eb, n*k*eb (little-endian elements)
  std::vector<uint8_t> scale_a, scale_b;  // per tile: m and n rows of kScaleStride bytes
  std::vector<uint32_t> c;                // per tile: m*n
  std::vector<std::string> tags;          // per tile
  std::vector<std::string> row_tags;      // per row of A (m per tile), when rows differ in kind
  void add(const std::vector<uint8_t>& ta, const std::vector<uint8_t>& tb, const std::vector<uint32_t>& tc,
           const std::string& tag) {
    a.insert(a.end(), ta.begin(), ta.end());
    b.insert(b.end(), tb.begin(), tb.end());
    c.insert(c.end(), tc.begin(), tc.end());
    tags.push_back(tag);
    ++count;
  }
  void add_scales(const std::vector<uint8_t>& sa, const std::vector<uint8_t>& sb) {
    scale_a.insert(scale_a.end(), sa.begin(), sa.end());
    scale_b.insert(scale_b.end(), sb.begin(), sb.end());
  }
};

inline uint32_t f32_bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }

// Element formats of the probed instructions and their encodings.
enum class Fmt { S8, U8, E4M3, E5M2, F16, BF16 };
inline int exp_bits(Fmt f) { return f == Fmt::E4M3 ? 4 : f == Fmt::E5M2 ? 5 : f == Fmt::F16 ? 5 : 8; }
inline int frac_bits(Fmt f) { return f == Fmt::E4M3 ? 3 : f == Fmt::E5M2 ? 2 : f == Fmt::F16 ? 10 : 7; }
inline int bias(Fmt f) { return (1 << (exp_bits(f) - 1)) - 1; }
inline int width(Fmt f) { return (f == Fmt::F16 || f == Fmt::BF16) ? 16 : 8; }
inline uint32_t make(Fmt f, bool neg, int biased_exp, uint32_t frac) {
  return (neg ? 1u << (width(f) - 1) : 0) | uint32_t(biased_exp) << frac_bits(f) | (frac & ((1u << frac_bits(f)) - 1));
}

inline void put(std::vector<uint8_t>& bytes, size_t index, int eb, uint32_t v) {
  for (int i = 0; i < eb; ++i) bytes[index * eb + i] = uint8_t(v >> (8 * i));
}

// Writes one record per output element of every tile (d: the device's D, tile-major) to `path`.
// Returns false when the file cannot be written; counts D elements still holding the canary.
inline bool write_records(const std::string& path, const char* ptx, const Tiles& t, const std::vector<uint32_t>& d,
                          const std::string& arch, uint32_t canary, size_t& records, size_t& canaries) {
  FILE* fp = std::fopen(path.c_str(), "w");
  if (!fp) { std::perror(path.c_str()); return false; }
  records = canaries = 0;
  const int m = t.m, n = t.n, k = t.k, eb = t.eb;
  auto element = [eb](const std::vector<uint8_t>& bytes, size_t index) {
    uint32_t v = 0;
    for (int i = 0; i < eb; ++i) v |= uint32_t(bytes[index * eb + i]) << (8 * i);
    return v;
  };
  for (int tile = 0; tile < t.count; ++tile)
    for (int row = 0; row < m; ++row)
      for (int col = 0; col < n; ++col) {
        std::string s = "{\"op\":\"";
        s += ptx;
        s += "\",\"a\":\"";
        for (int kk = 0; kk < k; ++kk) hex(s, element(t.a, size_t(tile) * m * k + size_t(row) * k + kk), 2 * eb);
        s += "\",\"b\":\"";
        for (int kk = 0; kk < k; ++kk) hex(s, element(t.b, size_t(tile) * n * k + size_t(col) * k + kk), 2 * eb);
        if (t.scales) {
          s += "\",\"scale_a\":\"";
          for (int i = 0; i < t.scales; ++i) hex(s, t.scale_a[(size_t(tile) * m + row) * Tiles::kScaleStride + i], 2);
          s += "\",\"scale_b\":\"";
          for (int i = 0; i < t.scales; ++i) hex(s, t.scale_b[(size_t(tile) * n + col) * Tiles::kScaleStride + i], 2);
        }
        const uint32_t cv = t.c[size_t(tile) * m * n + row * n + col], dv = d[size_t(tile) * m * n + row * n + col];
        if (dv == canary) ++canaries;
        s += "\",\"c\":\"";
        hex(s, cv, 8);
        s += "\",\"d\":\"";
        hex(s, dv, 8);
        const std::string& tag = t.row_tags.empty() ? t.tags[tile] : t.row_tags[size_t(tile) * m + row];
        s += "\",\"tag\":\"" + tag + "\",\"arch\":\"" + arch + "\"}\n";
        std::fputs(s.c_str(), fp);
        ++records;
      }
  return std::fclose(fp) == 0;
}

// write_records, then one summary line on standard output; false when the file cannot be
// written. `canaries` returns how many D elements still hold the canary.
inline bool write_and_report(const std::string& path, const char* ptx, const Tiles& t, const std::vector<uint32_t>& d,
                             const std::string& arch, uint32_t canary, size_t& canaries) {
  size_t records = 0;
  if (!write_records(path, ptx, t, d, arch, canary, records, canaries)) return false;
  std::printf("%-36s %8zu records, %zu canaries left  -> %s\n", path.substr(path.rfind('/') + 1).c_str(), records, canaries,
              path.c_str());
  return true;
}

}  // namespace probe
