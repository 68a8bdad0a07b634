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
// Both are packed so that the kernel reads them in order: A in panels of kRows rows,
// [m/kRows][kp/4][kRows][4 bytes]; B in panels of kCols columns, [kp/4][kCols][4 bytes] each.
constexpr size_t kRows = 6;    // rows per micro-kernel: 6 rows x 4 zmm accumulators
constexpr size_t kCols = 64;   // columns per B panel (4 zmm of 16 int32)
constexpr size_t kBlockQ = 64;  // K block, in groups of 4: the B block (16 KB) and A block (1.5 KB) stay in L1

struct Prepared {
  std::vector<uint8_t> a;          // packed A
  std::vector<int32_t> row_term;   // added per row
  size_t kp = 0, mp = 0, np = 0;
};

// Sums of a row (column) of bytes read as signed or unsigned, mod 2^32 (vectorisable loops).
uint32_t byte_sum(const uint8_t* x, size_t n, bool sgn) {
  int32_t total = 0;
  if (sgn) for (size_t k = 0; k < n; ++k) total += int8_t(x[k]);
  else for (size_t k = 0; k < n; ++k) total += x[k];
  return uint32_t(total);  // |total| <= 255 * n < 2^31 for n < 2^23
}

// One row (column) into its panel: 4 bytes per group of k, `width` rows (columns) per group,
// each byte XORed with `flip`.
void pack(const uint8_t* src, size_t k, uint8_t flip, uint8_t* panel, size_t width) {
  const uint32_t flip4 = flip * 0x01010101u;
  for (size_t kq = 0; kq < k / 4; ++kq) {
    uint32_t word;
    __builtin_memcpy(&word, src + 4 * kq, 4);
    word ^= flip4;
    __builtin_memcpy(panel + kq * 4 * width, &word, 4);
  }
  for (size_t kk = k / 4 * 4; kk < k; ++kk) panel[(kk / 4) * 4 * width + kk % 4] = uint8_t(src[kk] ^ flip);
}

// The kCols-column panel `panel` of B into `out` (kp * kCols bytes) and its column corrections:
// A made unsigned (a' = a + 128) when A is signed: sum a*b' = sum a'*b' - 128 * sum b', with
// sum b' = sum b (B signed) or sum b - 128 k (B unsigned).
void pack_b_panel(const Int8GemmShape& s, std::span<const uint8_t> b, size_t kp, size_t panel, int8_t* out,
                  uint32_t* col_term) {
  const uint8_t fb = s.b_signed ? 0 : 0x80;
  const size_t cols = std::min<size_t>(kCols, s.n - panel * kCols);
  if (cols < kCols || kp != s.k) std::fill(out, out + kp * kCols, 0);  // padding: the value 0
  for (size_t jj = 0; jj < kCols; ++jj) col_term[jj] = 0;
  for (size_t jj = 0; jj < cols; ++jj) {
    const uint8_t* src = &b[(panel * kCols + jj) * s.k];
    pack(src, s.k, fb, reinterpret_cast<uint8_t*>(out) + jj * 4, kCols);
    if (s.a_signed) col_term[jj] = 0u - 128u * (byte_sum(src, s.k, s.b_signed) - (s.b_signed ? 0u : uint32_t(128 * s.k)));
  }
}

// The packed operands live in buffers kept per calling thread and reused, so that a scheme's many
// GEMMs of one shape do not pay fresh pages (first-touch faults cost as much as the packing).
const Prepared& prepare(const Int8GemmShape& s, std::span<const uint8_t> a) {
  static thread_local Prepared buffers;
  Prepared& p = buffers;  // a plain reference: inside the parallel loop the name `buffers` would
                          // resolve to each worker's own thread_local
  p.kp = (s.k + 3) / 4 * 4;
  p.mp = (s.m + kRows - 1) / kRows * kRows;
  p.np = (s.n + kCols - 1) / kCols * kCols;
  p.a.resize(p.mp * p.kp);
  // Padding (rows beyond the matrix, k beyond K) holds the value 0 in the shifted form; without
  // padding every byte is written below.
  const uint8_t fa = s.a_signed ? 0x80 : 0;
  if (p.kp != s.k) std::fill(p.a.begin(), p.a.end(), fa);
  const std::vector<uint8_t> zero_row(s.k, 0);
  for (size_t i = s.m; i < p.mp; ++i)  // the rows that pad the last panel
    pack(zero_row.data(), s.k, fa, &p.a[(i / kRows) * (p.kp / 4) * 4 * kRows + (i % kRows) * 4], kRows);
  p.row_term.assign(s.m, 0);
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < s.m; ++i) {
    const uint8_t* src = &a[i * s.k];
    pack(src, s.k, fa, &p.a[(i / kRows) * (p.kp / 4) * 4 * kRows + (i % kRows) * 4], kRows);
    // B made signed (b' = b - 128) when B is unsigned: sum a*b = sum a*b' + 128 * sum a.
    if (!s.b_signed) p.row_term[i] = int32_t(128u * byte_sum(src, s.k, s.a_signed));
  }
  return p;
}

// One 6-row panel times one 64-column panel over groups kq0..kq1 of K, added into (or, for the
// first K block, stored to) the int32 tile at `out` (6 rows of `ld` int32). The 24 accumulators
// are named variables: g++ 12 keeps an accumulator array on the stack, halving the throughput.
#define OZREF_ROWS(X) X(0) X(1) X(2) X(3) X(4) X(5)
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void vnni_block(const Prepared& p, size_t rb, const int8_t* bp,
                                                                       size_t kq0, size_t kq1, bool first, uint32_t* out,
                                                                       size_t ld) {
  static_assert(kRows == 6 && kCols == 64, "the micro-kernel is written out for 6 x 64");
#define OZREF_ZERO(r) __m512i c0_##r = _mm512_setzero_si512(), c1_##r = c0_##r, c2_##r = c0_##r, c3_##r = c0_##r;
  OZREF_ROWS(OZREF_ZERO)
  const uint8_t* ap = p.a.data() + rb * (p.kp / 4) * 4 * kRows;
  for (size_t kq = kq0; kq < kq1; ++kq) {
    const int8_t* bq = bp + kq * 4 * kCols;
    const __m512i b0 = _mm512_loadu_si512(bq), b1 = _mm512_loadu_si512(bq + 64);
    const __m512i b2 = _mm512_loadu_si512(bq + 128), b3 = _mm512_loadu_si512(bq + 192);
    const int32_t* a4 = reinterpret_cast<const int32_t*>(ap + kq * 4 * kRows);
#define OZREF_STEP(r)                                  \
  {                                                    \
    const __m512i av = _mm512_set1_epi32(a4[r]);       \
    c0_##r = _mm512_dpbusd_epi32(c0_##r, av, b0);      \
    c1_##r = _mm512_dpbusd_epi32(c1_##r, av, b1);      \
    c2_##r = _mm512_dpbusd_epi32(c2_##r, av, b2);      \
    c3_##r = _mm512_dpbusd_epi32(c3_##r, av, b3);      \
  }
    OZREF_ROWS(OZREF_STEP)
  }
#define OZREF_STORE(r)                                                          \
  {                                                                             \
    uint32_t* row = out + (r) * ld;                                             \
    if (!first) {                                                               \
      c0_##r = _mm512_add_epi32(c0_##r, _mm512_loadu_si512(row));               \
      c1_##r = _mm512_add_epi32(c1_##r, _mm512_loadu_si512(row + 16));          \
      c2_##r = _mm512_add_epi32(c2_##r, _mm512_loadu_si512(row + 32));          \
      c3_##r = _mm512_add_epi32(c3_##r, _mm512_loadu_si512(row + 48));          \
    }                                                                           \
    _mm512_storeu_si512(row, c0_##r);                                           \
    _mm512_storeu_si512(row + 16, c1_##r);                                      \
    _mm512_storeu_si512(row + 32, c2_##r);                                      \
    _mm512_storeu_si512(row + 48, c3_##r);                                      \
  }
  OZREF_ROWS(OZREF_STORE)
#undef OZREF_ZERO
#undef OZREF_STEP
#undef OZREF_STORE
#undef OZREF_ROWS
}

// Each thread takes whole 32-column panels; for a panel, K in blocks (so the B block is reused
// from L1 across all row panels), the sums kept in a contiguous per-thread tile (m x 32 int32:
// rows of d lie a multiple of 4 KB apart, which would alias in L1), then the sign corrections and
// C added on the way out.
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void vnni_gemm(const Int8GemmShape& s, const Prepared& p,
                                                                      std::span<const uint8_t> b, std::span<const uint32_t> c,
                                                                      std::span<uint32_t> d) {
  const size_t panels = p.np / kCols, row_blocks = p.mp / kRows, groups = p.kp / 4;
#pragma omp parallel
  {
    static thread_local std::vector<uint32_t> tile;
    static thread_local std::vector<int8_t> b_panel;
    tile.resize(p.mp * kCols);
    b_panel.resize(p.kp * kCols);
    uint32_t col[kCols];
#pragma omp for schedule(static)
    for (size_t panel = 0; panel < panels; ++panel) {
      pack_b_panel(s, b, p.kp, panel, b_panel.data(), col);
      for (size_t kq0 = 0; kq0 < std::max<size_t>(groups, 1); kq0 += kBlockQ) {
        const size_t kq1 = std::min(groups, kq0 + kBlockQ);
        for (size_t rb = 0; rb < row_blocks; ++rb)
          vnni_block(p, rb, b_panel.data(), kq0, kq1, kq0 == 0, &tile[rb * kRows * kCols], kCols);
      }
      const size_t cols = std::min<size_t>(kCols, s.n - panel * kCols), j0 = panel * kCols;
      for (size_t i = 0; i < s.m; ++i) {
        const uint32_t* t = &tile[i * kCols];
        const uint32_t row = uint32_t(p.row_term[i]);
        uint32_t* out = &d[i * s.n + j0];
        if (c.empty()) {
          for (size_t jj = 0; jj < cols; ++jj) out[jj] = t[jj] + row + col[jj];
        } else {
          const uint32_t* cin = &c[i * s.n + j0];
          for (size_t jj = 0; jj < cols; ++jj) out[jj] = t[jj] + row + col[jj] + cin[jj];
        }
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
  if (cpu_has_vnni() && !g_portable && s.k > 0) {  // k = 0: D = C, which the portable loop gives without packing empty operands
    const Prepared& p = prepare(s, a);
    vnni_gemm(s, p, b, c, d);
  } else {
    portable_gemm(s, a, b, c, d);
  }
  omp_set_num_threads(saved);
}

}  // namespace ozref::mma
