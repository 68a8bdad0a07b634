// cublas_kblock_probe: the two parts of cuBLAS 13.1's FP64 emulation (CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH,
// strategy EAGER) that docs/third-party.md has not decoded. Prints, one line each:
//   blk m n k b23:<kb>(<bits>) b79:<kb>(<bits>)  the K-block size cuBLAS uses for the shape: row i of A
//        is 2^90 at k = 0 and 1 elsewhere, B is 1 with its row 0 zeroed, so in the block holding k = 0
//        the ones truncate to 0 and C = K - 1 - (kb - 1): printed as K - 1 - C = kb - 1 (all of C
//        equal, else "[varies]"); <bits> is the count cuBLAS reports.
//   dynA s bits / dynR s bits   the DYNAMIC control's bit count when one row element is 2^s (dynA) or
//        2^-s (dynR) among ones, 64x64x256.
//   near2 23: i...   k = 1, B = 1, a = 2 - 2^-6 + (i - 256) 2^-21: the i whose output differs from a
//        (meant to show the scale's near-2 threshold; it cannot: a on a grid of 2^-21 keeps every bit
//        under either scale at 23 bits, so the line is empty whatever the threshold).
//   near2fine 23: first <i> count <c>   a = 2 - 2^-6 + (i - 6144) 2^-22, i < 8192 (1.98291..1.98486,
//        covering the threshold's known interval (1.98296, 1.98468]): the first i whose output
//        differs from a and how many do (odd i above the threshold lose their last bit; "first -1"
//        when none): the threshold lies between a(first - 2) and a(first).
//   dyn <family> <params> bits      (only with the argument dynamic-count, then nothing else): the DYNAMIC
//        control's reported count on crafted inputs (dynamic_count below says what each family varies).
//   dynnpy <case> m n k bits    (only with the arguments dynamic-npy DIR): the DYNAMIC count on each input case
//        DIR/cases.txt lists ("name m n k"; DIR/<name>_A.npy, _B.npy f8 Fortran order, as make_inputs.py writes).
// Usage: cublas_kblock_probe [dynamic-count | dynamic-npy DIR] (exit 77 without a GPU).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using Vec = std::vector<double>;

// C = A B (column-major) under the emulation with `bits` fixed (> 0) or dynamic (< 0); reported bits in *used.
// Under dynamic, a nonzero `offset` is set as the mantissa bit offset and `cap` > 0 as the max bit count.
Vec emulated(const Vec& ha, const Vec& hb, int m, int n, int k, int bits, int* used, int offset = 0, int cap = 0) {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) std::exit(77);
  int* d_used;
  cudaMalloc(&d_used, sizeof(int));
  cudaMemset(d_used, 0xFF, sizeof(int));
  cublasSetMathMode(h, CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH);
  cublasSetEmulationStrategy(h, CUBLAS_EMULATION_STRATEGY_EAGER);
  cublasSetFixedPointEmulationMantissaControl(h, bits < 0 ? CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC : CUDA_EMULATION_MANTISSA_CONTROL_FIXED);
  if (bits > 0) cublasSetFixedPointEmulationMaxMantissaBitCount(h, bits);
  if (bits < 0 && cap > 0) cublasSetFixedPointEmulationMaxMantissaBitCount(h, cap);
  if (bits < 0 && offset != 0 && cublasSetFixedPointEmulationMantissaBitOffset(h, offset) != CUBLAS_STATUS_SUCCESS) *used = -2000;
  cublasSetFixedPointEmulationMantissaBitCountPointer(h, d_used);
  double *a, *b, *c;
  cudaMalloc(&a, ha.size() * sizeof(double));
  cudaMalloc(&b, hb.size() * sizeof(double));
  cudaMalloc(&c, size_t(m) * n * sizeof(double));
  cudaMemcpy(a, ha.data(), ha.size() * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), hb.size() * sizeof(double), cudaMemcpyHostToDevice);
  const double one = 1, zero = 0;
  const cublasStatus_t st = cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, m, b, k, &zero, c, m);
  Vec out(size_t(m) * n);
  cudaMemcpy(out.data(), c, out.size() * sizeof(double), cudaMemcpyDeviceToHost);
  if (*used != -2000) cudaMemcpy(used, d_used, sizeof(int), cudaMemcpyDeviceToHost);
  if (st != CUBLAS_STATUS_SUCCESS) *used = -1000 - int(st);
  cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(d_used);
  cublasDestroy(h);
  return out;
}

void block_sizes() {
  for (int m : {1, 64, 96, 128, 256, 1024})
    for (int n : {1, 8, 80, 128, 256})
      for (int k : {256, 512, 1024, 2048, 3000, 4096, 8192}) {
        Vec a(size_t(m) * k, 1.0), b(size_t(k) * n, 1.0);
        for (int i = 0; i < m; ++i) a[i] = std::ldexp(1.0, 90);
        for (int j = 0; j < n; ++j) b[size_t(j) * k] = 0;
        std::printf("blk %d %d %d", m, n, k);
        for (int bits : {23, 79}) {
          int used = 0;
          const Vec c = emulated(a, b, m, n, k, bits, &used);
          bool varies = false;
          for (double x : c) varies |= x != c[0];
          std::printf(" b%d:%g(%d)%s", bits, k - 1 - c[0], used, varies ? "[varies]" : "");
        }
        std::printf("\n");
      }
}

void dynamic_bits() {
  for (int sign : {1, -1})
    for (int s = 0; s <= 130; s += 2) {
      Vec a(64 * 256, 1.0), b(256 * 64, 1.0);
      for (int i = 0; i < 64; ++i) a[i + 64] = std::ldexp(1.0, sign * s);
      int used = 0;
      emulated(a, b, 64, 64, 256, -1, &used);
      std::printf("%s %d %d\n", sign > 0 ? "dynA" : "dynR", s, used);
    }
}

// The a = 2 - 2^-6 + (i - centre) 2^-step, i < count, as an m x 1 A times B = 1 at 23 bits.
Vec near_two_products(int count, int centre, int step, Vec* a) {
  for (int i = 0; i < count; ++i) a->push_back(2 - std::ldexp(1.0, -6) + (i - centre) * std::ldexp(1.0, -step));
  int used = 0;
  return emulated(*a, Vec(1, 1.0), count, 1, 1, 23, &used);
}

void near_two() {
  Vec a;
  const Vec c = near_two_products(512, 256, 21, &a);
  std::printf("near2 23:");
  for (int i = 0; i < 512; ++i)
    if (c[i] != a[i]) std::printf(" %d", i);
  std::printf("\n");
  Vec fine;
  const Vec cf = near_two_products(8192, 6144, 22, &fine);
  int first = -1, count = 0;
  for (int i = 0; i < 8192; ++i)
    if (cf[i] != fine[i]) first = first < 0 ? i : first, ++count;
  std::printf("near2fine 23: first %d count %d\n", first, count);
}

// One DYNAMIC run: prints "dyn <label> <reported count>" (-2000: the offset was refused).
void dyn_line(const char* label, const Vec& a, const Vec& b, int m, int n, int k, int offset = 0, int cap = 0) {
  int used = 0;
  emulated(a, b, m, n, k, -1, &used, offset, cap);
  std::printf("dyn %s %d\n", label, used);
}

// A (m x k) and B (k x n) of ones; element setters for column-major storage.
struct Pair {
  int m, n, k;
  Vec a, b;
  Pair(int m_, int n_, int k_, double fill = 1.0) : m(m_), n(n_), k(k_), a(size_t(m_) * k_, fill), b(size_t(k_) * n_, fill) {}
  double& A(int i, int kk) { return a[size_t(kk) * m + i]; }
  double& B(int kk, int j) { return b[size_t(j) * k + kk]; }
  void run(const char* label, int offset = 0, int cap = 0) const { dyn_line(label, a, b, m, n, k, offset, cap); }
};

// The gap family: (i, j)'s largest product 2^-g·sig below its line scales' product (A = [2^10, x], B = [0; 1]
// as row_scale, x = sig·2^(10-g)), on `rows` of the 64 rows (the others x = 2^10), k = 2 or padded to k.
void gap_family() {
  char label[96];
  for (int k : {2, 256})
    for (int rows : {1, 64})
      for (double sig : {1.0, 1.5, 1.9990234375})
        for (int g = 0; g <= 100; g += (g < 16 ? 1 : 4)) {
          Pair p(64, 64, k, 0.0);
          for (int i = 0; i < 64; ++i) p.A(i, 0) = std::ldexp(1.0, 10), p.A(i, 1) = std::ldexp(i < rows ? sig : 1.0, 10 - (i < rows ? g : 0));
          for (int j = 0; j < 64; ++j) p.B(1, j) = 1;
          std::snprintf(label, sizeof label, "gap k=%d rows=%d sig=%.10g g=%d", k, rows, sig, g);
          p.run(label);
        }
}

// cancel: a_i0 = a_i1 = 2^s, b_0j = 1, b_1j = -1 (C = k - 2 exactly, products 2^s); nocancel: b_1j = +1.
// blockgap: a_i0 = 2^s and b_200,j = 2^s among ones (no single product spans, but a whole-K scale does),
// at k = 256 (one K-block) and k = 1024 (blocks of 128 for 64 x 64).
void cancel_and_block_families() {
  char label[96];
  for (int sign : {-1, 1})
    for (int s = 0; s <= 120; s += 8) {
      Pair p(64, 64, 256);
      for (int i = 0; i < 64; ++i) p.A(i, 0) = p.A(i, 1) = std::ldexp(1.0, s);
      for (int j = 0; j < 64; ++j) p.B(1, j) = sign;
      std::snprintf(label, sizeof label, "%s s=%d", sign < 0 ? "cancel" : "nocancel", s);
      p.run(label);
    }
  for (int k : {256, 1024})
    for (int s = 0; s <= 80; s += 8) {
      Pair p(64, 64, k);
      for (int i = 0; i < 64; ++i) p.A(i, 0) = std::ldexp(1.0, s);
      for (int j = 0; j < 64; ++j) p.B(200, j) = std::ldexp(1.0, s);
      std::snprintf(label, sizeof label, "blockgap k=%d s=%d", k, s);
      p.run(label);
    }
}

// size: all ones over shapes (does the base count depend on m, n, k?); control: the gap case g = 20 under a
// mantissa bit offset or a max bit count; zero: (i, j) whose every product is 0 under nonzero scales.
void size_control_zero_families() {
  char label[96];
  for (int mn : {1, 64, 1024})
    for (int k : {1, 16, 256, 4096, 65536}) {
      Pair p(mn, mn, k);
      std::snprintf(label, sizeof label, "size m=n=%d k=%d", mn, k);
      p.run(label);
    }
  for (int g : {0, 20})
    for (int offset : {0, -8, -3, 3, 8})
      for (int cap : {0, 39, 79}) {
        Pair p(64, 64, 2, 0.0);
        for (int i = 0; i < 64; ++i) p.A(i, 0) = std::ldexp(1.0, 10), p.A(i, 1) = std::ldexp(1.0, 10 - g);
        for (int j = 0; j < 64; ++j) p.B(1, j) = 1;
        std::snprintf(label, sizeof label, "control g=%d offset=%d cap=%d", g, offset, cap);
        p.run(label, offset, cap);
      }
  Pair z(64, 64, 2, 0.0);
  for (int i = 0; i < 64; ++i) z.A(i, 0) = 1;
  for (int j = 0; j < 64; ++j) z.B(1, j) = 1;
  z.run("zero all-products-zero");
  z.A(0, 1) = std::ldexp(1.0, -30);
  z.run("zero one-product-2^-30");
}

// coarse: A's row is 2^s at k = 0 mod 2p, 2^-u at k = p mod 2p, 1 elsewhere; B's column 2^-u and 2^s at the same
// k (64 x 64 x 256): every product is at most 1 (u > s), but a blockwise estimate max(maxA + minB, minA + maxB)
// over blocks of more than p consecutive k sees 2^(s-u) instead: the count tells the estimate's block size.
void coarse_family() {
  char label[96];
  for (int p = 1; p <= 128; p *= 2) {
    Pair q(64, 64, 256);
    for (int kk = 0; kk < 256; ++kk) {
      const int phase = kk % (2 * p);
      if (phase != 0 && phase != p) continue;
      for (int i = 0; i < 64; ++i) q.A(i, kk) = std::ldexp(1.0, phase == 0 ? 10 : -20);
      for (int j = 0; j < 64; ++j) q.B(kk, j) = std::ldexp(1.0, phase == 0 ? -20 : 10);
    }
    std::snprintf(label, sizeof label, "coarse s=10 u=20 p=%d", p);
    q.run(label);
  }
}

// An f8 Fortran-order .npy of `count` values (its header is not checked beyond its length), or empty.
Vec read_npy(const std::string& path, size_t count) {
  FILE* f = std::fopen(path.c_str(), "rb");
  unsigned char head[10];
  Vec v(count);
  const bool ok = f && std::fread(head, 1, 10, f) == 10 && std::fseek(f, 10 + head[8] + 256 * head[9], SEEK_SET) == 0 &&
                  std::fread(v.data(), sizeof(double), count, f) == count;
  if (f) std::fclose(f);
  return ok ? v : Vec();
}

void dynamic_npy(const std::string& dir) {
  FILE* list = std::fopen((dir + "/cases.txt").c_str(), "r");
  char name[256];
  int m, n, k;
  while (list && std::fscanf(list, "%255s %d %d %d", name, &m, &n, &k) == 4) {
    const Vec a = read_npy(dir + "/" + name + "_A.npy", size_t(m) * k), b = read_npy(dir + "/" + name + "_B.npy", size_t(k) * n);
    int used = -3000;
    if (!a.empty() && !b.empty()) emulated(a, b, m, n, k, -1, &used);
    std::printf("dynnpy %s %d %d %d %d\n", name, m, n, k, used);
  }
  if (list) std::fclose(list);
}

void dynamic_count() {
  gap_family();
  coarse_family();
  cancel_and_block_families();
  size_control_zero_families();
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;
  if (argc == 2 && std::string(argv[1]) == "dynamic-count") return dynamic_count(), 0;
  if (argc == 3 && std::string(argv[1]) == "dynamic-npy") return dynamic_npy(argv[2]), 0;
  if (argc != 1) return std::fprintf(stderr, "usage: cublas_kblock_probe [dynamic-count | dynamic-npy DIR]\n"), 2;
  block_sizes();
  dynamic_bits();
  near_two();
  return 0;
}
