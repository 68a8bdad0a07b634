// residues: the balanced residues of A' (by rows, N x P x m x k) and B' (by columns, N x P x n x k)
// modulo every modulus, as int8 (every modulus at most 256) or int16; a complex run's planes are
// formed in residue arithmetic: 3M's re, im, re + im, or the Gaussian re + iota im, re - iota im. Each element is read once for all moduli; the outputs are
// written in 8-element (A) or 16-byte (B, through a transposing tile in shared memory) pieces.
// truncate_residues, the emulated GEMM's path, forms A' and B' from A, B and the shifts on the way
// in (truncate's element function), so that they are never written.
#include "runtime/cuda_check.hpp"
#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/gaussian.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {
namespace {

constexpr int kRun = 8;  // A's elements per thread

// The modulus constants a thread needs, worked out once per modulus: m, 1/m, its balanced range,
// and for a Gaussian product (odd m < 256) iota and the Barrett factor of the reduction of iota im
// (|.| < 2^15: barrett_residue32's domain).
struct ModulusConstants {
  int64_t m;
  double inv;
  BalancedRange range;
  int32_t iota, mu;
};

__device__ inline ModulusConstants constants_of(const int64_t* moduli, const int32_t* gaussian, size_t t) {
  const int64_t m = moduli[t];
  const int32_t* g = gaussian ? gaussian + t * kGaussianConstants : nullptr;
  return {m, 1.0 / static_cast<double>(m), balanced_range(static_cast<int32_t>(m)), g ? g[kIota] : 0, g ? g[kBarrett] : 0};
}

// residue_of_integer out of line: the rare case's registers stay out of the common case's loop.
__device__ __noinline__ int32_t residue_of_any_integer(double x, int64_t m, double inv) { return static_cast<int32_t>(residue_of_integer(x, m, inv)); }

// The residues modulo m of a thread's n elements, plane by plane: of a real run, the element; of
// a complex run with 3 planes (3M) re, im and re + im; with 2 (Gaussian) re + iota im and
// re - iota im. `small`: every |x| < 2^51 and m < 2^30, so that the common case's arithmetic
// applies to all, from the elements' low words; the branch is taken once for all elements, so
// that the common case's loop holds none.
template <int n, int parts, int planes>
__device__ inline void residues_of(const double (&x)[n][2], const uint32_t (&low)[n][2], bool small, const ModulusConstants& c, int32_t (&r)[n][3]) {
  const int32_t m = static_cast<int32_t>(c.m);
  if (small) {
#pragma unroll
    for (int i = 0; i < n; ++i)
#pragma unroll
      for (int q = 0; q < parts; ++q) r[i][q] = residue_of_small_integer(x[i][q], low[i][q], m, c.inv, c.range);
  } else {
#pragma unroll
    for (int i = 0; i < n; ++i)
#pragma unroll
      for (int q = 0; q < parts; ++q) r[i][q] = residue_of_any_integer(x[i][q], c.m, c.inv);
  }
#pragma unroll
  for (int i = 0; i < n; ++i) {
    if (planes == 3) r[i][2] = into_range(r[i][0] + r[i][1], m, c.range);
    if (planes == 2) {  // one reduction of iota im; re +- it are then within one m of the range
      const int32_t turned = barrett_residue32(c.iota * r[i][1], m, c.mu);
      r[i][1] = into_range(r[i][0] - turned, m, c.range);
      r[i][0] = into_range(r[i][0] + turned, m, c.range);
    }
  }
}

// Every modulus's residues of a thread's elements, handed plane by plane to `store(plane index,
// residues, plane)`; `small`: every |x| < 2^51.
template <int n, int parts, int planes, typename Store>
__device__ inline void for_every_modulus(const double (&x)[n][2], const uint32_t (&low)[n][2], bool small, const int64_t* moduli, const int32_t* gaussian,
                                         size_t N, Store&& store) {
  for (size_t t = 0; t < N; ++t) {
    const ModulusConstants c = constants_of(moduli, gaussian, t);
    int32_t r[n][3];
    residues_of<n, parts, planes>(x, low, small && c.m < (int64_t{1} << 30), c, r);
#pragma unroll
    for (int p = 0; p < planes; ++p) store(t * planes + p, r, p);
  }
}

// The Gaussian planes of a thread's n elements modulo every modulus where every |x| < 2^51, from
// the elements' limbs (split once for all moduli): per modulus and element two sums of limbs times
// the modulus's constants and two reductions (gaussian_planes), where the residues of re and im
// and a reduction of iota im cost about twice as much.
template <int n, typename Store>
__device__ inline void gaussian_planes_of_small(const double (&x)[n][2], const int64_t* moduli, const int32_t* gaussian, size_t N, Store&& store) {
  IntegerLimbs re[n], im[n];
#pragma unroll
  for (int i = 0; i < n; ++i) re[i] = integer_limbs(x[i][0]), im[i] = integer_limbs(x[i][1]);
  for (size_t t = 0; t < N; ++t) {
    const int32_t m = static_cast<int32_t>(moduli[t]);
    int32_t g[kGaussianConstants];
#pragma unroll
    for (size_t q = 0; q < kGaussianConstants; ++q) g[q] = gaussian[t * kGaussianConstants + q];
    int32_t r[n][3];
#pragma unroll
    for (int i = 0; i < n; ++i) gaussian_planes(re[i], im[i], m, g, r[i][0], r[i][1]);
    store(2 * t, r, 0);
    store(2 * t + 1, r, 1);
  }
}

// Every plane of every modulus (for_every_modulus), the Gaussian planes of small elements by limbs.
template <int n, int parts, int planes, typename Store>
__device__ inline void planes_of_every_modulus(const double (&x)[n][2], const uint32_t (&low)[n][2], bool small, const int64_t* moduli,
                                               const int32_t* gaussian, size_t N, Store&& store) {
  if constexpr (planes == 2)
    if (small) return gaussian_planes_of_small<n>(x, moduli, gaussian, N, store);
  for_every_modulus<n, parts, planes>(x, low, small, moduli, gaussian, N, store);
}

// Whether every |x| < 2^51, and the elements' low words where so.
template <int n, int parts>
__device__ inline bool all_small(const double (&x)[n][2], uint32_t (&low)[n][2]) {
  bool small = true;
#pragma unroll
  for (int i = 0; i < n; ++i)
#pragma unroll
    for (int q = 0; q < parts; ++q) {
      small = small && fabs(x[i][q]) < 0x1p51;
      low[i][q] = low_word(x[i][q]);
    }
  return small;
}

// An operand element as the stage's integer: itself (residues), or trunc(x 2^shift) (truncate_residues, shifts non-null).
__device__ inline double operand(const double* x, size_t at, const int32_t* shifts, size_t line) {
  return shifts ? scaled_integer(x[at], shifts[line]) : x[at];
}

// Eight residues as R (their low bytes or halves) in one aligned store: the bytes are put together
// by byte permutes (four conversions and shifts each otherwise).
__device__ inline void store_piece(const int32_t (&v)[kRun], int8_t* dst) {
  auto word = [&](int i) { return __byte_perm(__byte_perm(v[i], v[i + 1], 0x0040), __byte_perm(v[i + 2], v[i + 3], 0x0040), 0x5410); };
  *reinterpret_cast<uint2*>(dst) = make_uint2(word(0), word(4));
}
__device__ inline void store_piece(const int32_t (&v)[kRun], int16_t* dst) {
  auto word = [&](int i) { return __byte_perm(v[i], v[i + 1], 0x5410); };
  *reinterpret_cast<uint4*>(dst) = make_uint4(word(0), word(2), word(4), word(6));
}

// A's elements v0 .. v0 + 7 (in order; rows of k), read once, into every plane of every modulus.
template <typename R, int parts, int planes>
__global__ void rows_kernel(const double* x, size_t count, size_t k, const int32_t* shifts, const int64_t* moduli, const int32_t* gaussian, size_t N,
                            R* out) {
  const size_t v0 = (blockIdx.x * size_t(blockDim.x) + threadIdx.x) * kRun;
  if (v0 >= count) return;
  const bool whole = v0 + kRun <= count && count % kRun == 0;
  size_t row = shifts ? index_quotient(v0, k) : 0, col = shifts ? v0 - row * k : 0;
  double values[kRun][2] = {};
#pragma unroll
  for (int i = 0; i < kRun; ++i) {
#pragma unroll
    for (int q = 0; q < parts; ++q) values[i][q] = v0 + i < count ? operand(x, q * count + v0 + i, shifts, row) : 0.0;
    if (++col == k) col = 0, ++row;
  }
  uint32_t low[kRun][2];
  auto store = [&](size_t plane, const int32_t(&r)[kRun][3], int p) {
    R* dst = out + plane * count + v0;
    if (whole) {
      int32_t v[kRun];
#pragma unroll
      for (int i = 0; i < kRun; ++i) v[i] = r[i][p];
      store_piece(v, dst);
    }
    else for (int i = 0; i < kRun && v0 + i < count; ++i) dst[i] = static_cast<R>(r[i][p]);
  };
  const bool small = all_small<kRun, parts>(values, low);
  planes_of_every_modulus<kRun, parts, planes>(values, low, small, moduli, gaussian, N, store);
}

// B (k x n) by columns (n x k): a block takes 128 rows of K and 32 columns, reads them along B's
// rows, and writes each column's 128 residues of a plane as 16-byte pieces from shared memory.
constexpr int kTileK = 128, kTileN = 32, kColumnThreads = 256;

template <typename R, int parts, int planes>
__global__ void __launch_bounds__(kColumnThreads)
    columns_kernel(const double* x, size_t k, size_t n, const int32_t* shifts, const int64_t* moduli, const int32_t* gaussian, size_t N, R* out) {
  // Each thread: 16 rows of one column. A tile row of 4 bytes more than 128 residues is an odd
  // number of 4-byte banks, so that a warp's 32 columns write to 32 banks (a 16-byte pad: 8-way
  // conflicts for int8); its pieces are then read as 4-byte words.
  constexpr int kPad = 4 / sizeof(R), kRows = kTileK / (kColumnThreads / kTileN);
  constexpr int per_piece = 16 / sizeof(R), pieces = kTileN * kTileK / per_piece;
  __shared__ __align__(16) R tile[kTileN][kTileK + kPad];
  const size_t k0 = size_t(blockIdx.y) * kTileK, j0 = size_t(blockIdx.x) * kTileN, count = k * n;
  const int tx = threadIdx.x % kTileN, ty = threadIdx.x / kTileN;
  const size_t j = j0 + tx;
  double values[kRows][2] = {};
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
    const size_t row = k0 + ty + r * (kColumnThreads / kTileN);
#pragma unroll
    for (int q = 0; q < parts; ++q) values[r][q] = row < k && j < n ? operand(x, q * count + row * n + j, shifts, j) : 0.0;
  }
  uint32_t low[kRows][2];
  auto store = [&](size_t plane, const int32_t(&res)[kRows][3], int p) {
#pragma unroll
    for (int r = 0; r < kRows; ++r) tile[tx][ty + r * (kColumnThreads / kTileN)] = static_cast<R>(res[r][p]);
    __syncthreads();
    for (int piece = threadIdx.x; piece < pieces; piece += kColumnThreads) {
      const int c = piece / (kTileK / per_piece), kk = piece % (kTileK / per_piece) * per_piece;
      const size_t col = j0 + c, row = k0 + kk;
      if (col >= n || row >= k) continue;
      R* dst = out + plane * count + col * k + row;
      if (row + per_piece <= k && k % per_piece == 0) {
        const uint32_t* words = reinterpret_cast<const uint32_t*>(&tile[c][kk]);
        *reinterpret_cast<uint4*>(dst) = make_uint4(words[0], words[1], words[2], words[3]);
      }
      else for (int i = 0; i < per_piece && row + i < k; ++i) dst[i] = tile[c][kk + i];
    }
    __syncthreads();
  };
  // store's barriers: the Gaussian planes' two paths call it from different places, so that the
  // choice between them must be the whole block's (the other runs choose per thread, as it costs less).
  const bool thread_small = all_small<kRows, parts>(values, low);
  const bool small = planes == 2 ? __syncthreads_and(thread_small) != 0 : thread_small;
  planes_of_every_modulus<kRows, parts, planes>(values, low, small, moduli, gaussian, N, store);
}

template <typename R, int parts, int planes>
void residues_into(const Shape& s, const double* ta, const double* tb, const int32_t* row_shift, const int32_t* col_shift, const int64_t* moduli,
                   const int32_t* gaussian, R* ra, R* rb) {
  const size_t count_a = s.m * s.k;
  rows_kernel<R, parts, planes><<<blocks_for((count_a + kRun - 1) / kRun), 256>>>(ta, count_a, s.k, row_shift, moduli, gaussian, s.N, ra);
  OZREF_CUDA_LAUNCHED();
  const dim3 tiles(static_cast<unsigned>((s.n + kTileN - 1) / kTileN), static_cast<unsigned>((s.k + kTileK - 1) / kTileK));
  columns_kernel<R, parts, planes><<<tiles, kColumnThreads>>>(tb, s.k, s.n, col_shift, moduli, gaussian, s.N, rb);
  OZREF_CUDA_LAUNCHED();
}

// Real (1 plane), 3M (3) or Gaussian (2: `gaussian` holds the constants).
template <typename R>
void residues_of_parts(const Shape& s, const double* ta, const double* tb, const int32_t* row_shift, const int32_t* col_shift, const int64_t* moduli,
                       const int32_t* gaussian, R* ra, R* rb) {
  if (s.S == 1) return residues_into<R, 1, 1>(s, ta, tb, row_shift, col_shift, moduli, nullptr, ra, rb);
  if (s.P == 2) {
    if (!gaussian) throw std::logic_error("residues: a Gaussian complex run needs its constants");
    return residues_into<R, 2, 2>(s, ta, tb, row_shift, col_shift, moduli, gaussian, ra, rb);
  }
  residues_into<R, 2, 3>(s, ta, tb, row_shift, col_shift, moduli, nullptr, ra, rb);
}

}  // namespace

void residues(const Shape& s, const double* ta, const double* tb, const int64_t* moduli, const int32_t* gaussian, int8_t* ra, int8_t* rb) {
  residues_of_parts(s, ta, tb, nullptr, nullptr, moduli, gaussian, ra, rb);
}

void residues(const Shape& s, const double* ta, const double* tb, const int64_t* moduli, const int32_t* gaussian, int16_t* ra, int16_t* rb) {
  residues_of_parts(s, ta, tb, nullptr, nullptr, moduli, gaussian, ra, rb);
}

void truncate_residues(const Shape& s, const double* a, const double* b, const int32_t* row_shift, const int32_t* col_shift, const int64_t* moduli,
                       const int32_t* gaussian, int8_t* ra, int8_t* rb) {
  residues_of_parts(s, a, b, row_shift, col_shift, moduli, gaussian, ra, rb);
}

}  // namespace ozref::device::ozaki2
