#include "mma/int8_gemm.hpp"

#include <immintrin.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <vector>

namespace ozref::mma {
namespace {

std::atomic<bool> g_portable{false};

// Every operand is made u8 (for A) and s8 (for B) by flipping the top bit where needed, and the
// difference is corrected exactly (mod 2^32):
//   a_s = a_u - 128 (a_u = a_s ^ 0x80),  b_u = b_s + 128 (b_s = b_u ^ 0x80)
//   sum a*b = sum a' * b' + corrections from row sums of A and column sums of B.
struct Prepared {
  std::vector<uint8_t> a;          // m x kp, u8
  std::vector<int8_t> b;           // packed: [n/32 panels][kp/4][32 columns][4 bytes]
  std::vector<int32_t> row_term;   // added per row
  std::vector<int32_t> col_term;   // added per column
  size_t kp = 0, np = 0;
};

Prepared prepare(const Int8GemmShape& s, std::span<const uint8_t> a, std::span<const uint8_t> b) {
  Prepared p;
  p.kp = (s.k + 3) / 4 * 4;
  p.np = (s.n + 31) / 32 * 32;
  p.a.assign(s.m * p.kp, s.a_signed ? 0x80 : 0);  // padding holds the value 0 in the shifted form
  p.b.assign(p.np * p.kp, 0);
  p.row_term.assign(s.m, 0);
  p.col_term.assign(p.np, 0);
  const uint8_t fa = s.a_signed ? 0x80 : 0, fb = s.b_signed ? 0 : 0x80;
  const uint32_t fb4 = fb * 0x01010101u;
  // Sums of a row (column) of bytes read as signed or unsigned, mod 2^32 (vectorisable loops).
  auto byte_sum = [](const uint8_t* x, size_t n, bool sgn) {
    int32_t total = 0;
    if (sgn) for (size_t k = 0; k < n; ++k) total += int8_t(x[k]);
    else for (size_t k = 0; k < n; ++k) total += x[k];
    return uint32_t(total);  // |total| <= 255 * n < 2^31 for n < 2^23
  };
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < s.m; ++i) {
    const uint8_t* src = &a[i * s.k];
    uint8_t* dst = &p.a[i * p.kp];
    for (size_t k = 0; k < s.k; ++k) dst[k] = src[k] ^ fa;
    // B made signed (b' = b - 128) when B is unsigned: sum a*b = sum a*b' + 128 * sum a.
    if (!s.b_signed) p.row_term[i] = int32_t(128u * byte_sum(src, s.k, s.a_signed));
  }
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < s.n; ++j) {
    const uint8_t* src = &b[j * s.k];
    int8_t* panel = &p.b[(j / 32) * (p.kp / 4) * 128 + (j % 32) * 4];
    for (size_t kq = 0; kq < s.k / 4; ++kq) {  // four k at a time: one 32-bit word per column
      uint32_t word;
      __builtin_memcpy(&word, src + 4 * kq, 4);
      word ^= fb4;
      __builtin_memcpy(panel + kq * 128, &word, 4);
    }
    for (size_t k = s.k / 4 * 4; k < s.k; ++k) panel[(k / 4) * 128 + k % 4] = int8_t(src[k] ^ fb);
    // A made unsigned (a' = a + 128) when A is signed: sum a*b' = sum a'*b' - 128 * sum b'.
    // sum b' = sum b (B signed) or sum b - 128 k (B unsigned).
    if (s.a_signed) {
      const uint32_t sum_b_prime = byte_sum(src, s.k, s.b_signed) - (s.b_signed ? 0u : uint32_t(128 * s.k));
      p.col_term[j] = int32_t(0u - 128u * sum_b_prime);
    }
  }
  return p;
}

// Rows i0..i0+R-1 of one 32-column panel over the whole K, into `out` (R rows of 32 int32).
template <int R>
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void vnni_block(const Prepared& p, size_t i0, size_t panel,
                                                                       int32_t* out) {
  __m512i acc[R][2];
  for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = _mm512_setzero_si512();
  const int8_t* bp = p.b.data() + panel * (p.kp / 4) * 128;
  const uint8_t* ap = p.a.data() + i0 * p.kp;
  for (size_t kq = 0; kq < p.kp / 4; ++kq) {
    const __m512i b0 = _mm512_loadu_si512(bp + kq * 128);
    const __m512i b1 = _mm512_loadu_si512(bp + kq * 128 + 64);
    for (int r = 0; r < R; ++r) {
      int32_t word;
      __builtin_memcpy(&word, ap + r * p.kp + kq * 4, 4);
      const __m512i av = _mm512_set1_epi32(word);
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], av, b0);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], av, b1);
    }
  }
  for (int r = 0; r < R; ++r) {
    _mm512_storeu_si512(out + 32 * r, acc[r][0]);
    _mm512_storeu_si512(out + 32 * r + 16, acc[r][1]);
  }
}

// Blocks of 12 rows x 32 columns (24 accumulators in zmm registers), shared out among threads.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void vnni_gemm(const Int8GemmShape& s, const Prepared& p,
                                                                      std::span<const uint32_t> c, std::span<uint32_t> d) {
  constexpr size_t kRows = 12;
  const size_t panels = p.np / 32, row_blocks = (s.m + kRows - 1) / kRows;
#pragma omp parallel for schedule(dynamic, 1) collapse(2)
  for (size_t panel = 0; panel < panels; ++panel)
    for (size_t rb = 0; rb < row_blocks; ++rb) {
      const size_t i0 = rb * kRows, rows = std::min<size_t>(kRows, s.m - i0);
      alignas(64) int32_t out[32 * kRows];
      switch (rows) {
        case 12: vnni_block<12>(p, i0, panel, out); break;
        case 11: vnni_block<11>(p, i0, panel, out); break;
        case 10: vnni_block<10>(p, i0, panel, out); break;
        case 9: vnni_block<9>(p, i0, panel, out); break;
        case 8: vnni_block<8>(p, i0, panel, out); break;
        case 7: vnni_block<7>(p, i0, panel, out); break;
        case 6: vnni_block<6>(p, i0, panel, out); break;
        case 5: vnni_block<5>(p, i0, panel, out); break;
        case 4: vnni_block<4>(p, i0, panel, out); break;
        case 3: vnni_block<3>(p, i0, panel, out); break;
        case 2: vnni_block<2>(p, i0, panel, out); break;
        default: vnni_block<1>(p, i0, panel, out); break;
      }
      for (size_t r = 0; r < rows; ++r) {
        const int32_t* tmp = out + 32 * r;
        const size_t i = i0 + r;
        for (size_t jj = 0; jj < 32; ++jj) {
          const size_t j = panel * 32 + jj;
          if (j >= s.n) break;
          uint32_t v = uint32_t(tmp[jj]) + uint32_t(p.row_term[i]) + uint32_t(p.col_term[j]);
          if (!c.empty()) v += c[i * s.n + j];
          d[i * s.n + j] = v;
        }
      }
    }
}

void portable_gemm(const Int8GemmShape& s, std::span<const uint8_t> a, std::span<const uint8_t> b,
                   std::span<const uint32_t> c, std::span<uint32_t> d) {
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = 0; j < s.n; ++j) {
      int32_t sum = 0;  // |a*b| <= 2^16, blocks of 2^14 products cannot overflow int32
      uint32_t total = c.empty() ? 0 : c[i * s.n + j];
      for (size_t k0 = 0; k0 < s.k; k0 += 16384) {
        sum = 0;
        const size_t k1 = std::min(s.k, k0 + 16384);
        for (size_t k = k0; k < k1; ++k) {
          const int32_t x = s.a_signed ? int32_t(int8_t(a[i * s.k + k])) : int32_t(a[i * s.k + k]);
          const int32_t y = s.b_signed ? int32_t(int8_t(b[j * s.k + k])) : int32_t(b[j * s.k + k]);
          sum += x * y;
        }
        total += uint32_t(sum);
      }
      d[i * s.n + j] = total;
    }
}

}  // namespace

bool cpu_has_vnni() {
  static const bool has = __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw");
  return has;
}

void force_portable_int8_gemm(bool portable) { g_portable = portable; }

void int8_gemm_wrapping(const Int8GemmShape& s, std::span<const uint8_t> a, std::span<const uint8_t> b,
                        std::span<const uint32_t> c, std::span<uint32_t> d, int threads) {
  const int saved = omp_get_max_threads();
  if (threads > 0) omp_set_num_threads(threads);
  if (cpu_has_vnni() && !g_portable) {
    const Prepared p = prepare(s, a, b);
    vnni_gemm(s, p, c, d);
  } else {
    portable_gemm(s, a, b, c, d);
  }
  omp_set_num_threads(saved);
}

}  // namespace ozref::mma
