#include "exact/crt_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <cmath>
#include <stdexcept>

#include "common/blas.hpp"
#include "common/vector_clones.hpp"

namespace ozref {
namespace {

using u128 = unsigned __int128;

constexpr uint32_t kLargestPrime = (1u << 26) - 1;  // Garner multiplies two residues: below 2^52
constexpr uint32_t kSmallestPrime = 1u << 12;      // keeps x / p below 2^41 in reduce_mod
constexpr int kMaxModuli = 512;

// x mod p in [0, p) for an integer |x| <= 2^52 + 2^51 (inverse = 1 / p, p < 2^26): the quotient
// rounded to nearest (by adding and subtracting 1.5 * 2^52) is within one half and a little of
// x / p, so q * p is below 2^53 and exact, and so is the remainder, in (-p, p) before the
// correction. Arithmetic, not a branch, so that the compiler vectorises the loops around it.
inline double reduce_mod(double x, double p, double inverse) {
  const double q = (x * inverse + 0x1.8p52) - 0x1.8p52;
  const double r = x - q * p;
  return r + p * double(r < 0);
}

// One prime with the tables its residues need. Its arithmetic is on integers held exactly in
// doubles, so that the compiler can vectorise it.
struct Modulus {
  double p = 0;
  double inverse = 0;           // 1 / p, for the quotient estimate
  double multiple = 0;          // the largest multiple of p up to 2^52
  std::vector<double> pow2;     // 2^(s + 18 t) mod p at [3 s + t], t = 0, 1, 2, every shift s

  double reduce(double x) const { return reduce_mod(x, p, inverse); }
  // The same for a DGEMM result, an integer of magnitude at most 2^53.
  double reduce_sum(double x) const {
    const double nearer = x - std::copysign(multiple, x);
    return reduce(std::fabs(x) > 0x1p52 ? nearer : x);
  }
};

// The largest odd p whose balanced residues, at most h = (p - 1) / 2, give K * h^2 <= 2^53.
uint32_t prime_limit(size_t k) {
  uint64_t h = static_cast<uint64_t>(std::sqrt(0x1p53 / static_cast<double>(std::max<size_t>(k, 1))));
  while (u128{k} * h * h > (u128{1} << 53)) --h;
  return static_cast<uint32_t>(std::min<uint64_t>(2 * h + 1, kLargestPrime));
}

bool is_prime(uint32_t x) {
  if (x % 2 == 0) return x == 2;
  for (uint32_t d = 3; d * d <= x; d += 2)
    if (x % d == 0) return false;
  return true;
}

// The largest primes at most `limit` whose product is at least 2^(bits + 1), so that the balanced
// representative of a value below 2^bits in magnitude is unique. Empty when more than kMaxModuli
// would be needed or the primes would be too small.
std::vector<uint32_t> choose_primes(size_t k, long bits) {
  std::vector<uint32_t> primes;
  double log2_product = 0;
  for (uint32_t x = prime_limit(k) | 1; log2_product < double(bits) + 1.001; x -= 2) {
    if (x < kSmallestPrime || int(primes.size()) == kMaxModuli) return {};
    if (!is_prime(x)) continue;
    primes.push_back(x);
    log2_product += std::log2(double(x));
  }
  return primes;
}

int64_t inverse_mod(int64_t a, int64_t p) {  // a^-1 mod p by extended Euclid (gcd(a, p) = 1)
  int64_t r0 = p, r1 = a % p, s0 = 0, s1 = 1;
  while (r1) {
    const int64_t q = r0 / r1, r2 = r0 - q * r1, s2 = s0 - q * s1;
    r0 = r1;
    r1 = r2;
    s0 = s1;
    s1 = s2;
  }
  return s0 < 0 ? s0 + p : s0;
}

// Garner's constants: digit i of x's mixed-radix form is
// ((r_i - (v_0 + p_0 (v_1 + p_1 (... v_(i-1))))) * inverse[i]) mod p_i.
struct MixedRadix {
  std::vector<Modulus> moduli;
  std::vector<double> inverse;               // (p_0 ... p_(i-1))^-1 mod p_i
  std::vector<std::vector<double>> radix;    // radix[i][j] = p_j mod p_i, j < i
  std::vector<uint64_t> product, half;        // M = p_0 ... p_(m-1), and (M - 1) / 2
};

// x = x * factor + addend; returns the word carried out of x.
uint64_t multiply_add(std::span<uint64_t> x, uint64_t factor, uint64_t addend) {
  u128 carry = addend;
  for (uint64_t& w : x) {
    const u128 t = u128{w} * factor + carry;
    w = static_cast<uint64_t>(t);
    carry = t >> 64;
  }
  return static_cast<uint64_t>(carry);
}

MixedRadix mixed_radix(const std::vector<uint32_t>& primes, int max_shift) {
  MixedRadix mr;
  const size_t count = primes.size();
  mr.moduli.resize(count);
  mr.inverse.resize(count);
  mr.radix.resize(count);
  for (size_t i = 0; i < count; ++i) {
    Modulus& md = mr.moduli[i];
    const uint64_t p = primes[i];
    md.p = double(p);
    md.inverse = 1.0 / md.p;
    md.multiple = double(((uint64_t{1} << 52) / p) * p);
    md.pow2.resize(3 * (size_t(max_shift) + 1));
    uint64_t v = 1;
    for (size_t s = 0; s < md.pow2.size() / 3; ++s, v = v * 2 % p)
      for (int t = 0; t < 3; ++t) md.pow2[3 * s + t] = double(v * ((uint64_t{1} << (18 * t)) % p) % p);
    uint64_t prefix = 1;  // p_0 ... p_(i-1) mod p_i
    for (size_t j = 0; j < i; ++j) {
      mr.radix[i].push_back(double(primes[j] % p));
      prefix = prefix * (primes[j] % p) % p;
    }
    mr.inverse[i] = double(inverse_mod(int64_t(prefix), int64_t(p)));
  }
  double log2_product = 0;
  for (uint32_t p : primes) log2_product += std::log2(double(p));
  mr.product.assign(size_t(log2_product / 64) + 2, 0);
  mr.product[0] = 1;
  for (uint32_t p : primes) multiply_add(mr.product, p, 0);
  while (mr.product.size() > 1 && mr.product.back() == 0) mr.product.pop_back();
  mr.half = mr.product;  // M is odd: (M - 1) / 2 = M >> 1
  for (size_t w = 0; w < mr.half.size(); ++w)
    mr.half[w] = (mr.half[w] >> 1) | (w + 1 < mr.half.size() ? mr.half[w + 1] << 63 : 0);
  return mr;
}

// out[e] = the balanced residue in [-(p-1)/2, (p-1)/2] of element first + e of x, for count
// elements: the significand in three 18-bit pieces, each times 2^(shift + 18 t) mod p, a sum below
// 2^46, one reduction, and the sign (a multiplication by -1, 0 or 1: exact).
OZREF_VECTOR_CLONES void balanced_residues(const ScaledIntegerMatrix& x, size_t first, size_t count,
                                           const Modulus& md, double* out) {
  const int64_t* significand = x.significand.data() + first;
  const uint16_t* shift = x.shift.data() + first;
  const double* pow2 = md.pow2.data();
  const double p = md.p, half = (md.p - 1) / 2, inverse = md.inverse;
#pragma omp simd
  for (size_t e = 0; e < count; ++e) {
    const int64_t sig = significand[e];
    const int64_t mag = std::abs(sig);
    const int64_t s = 3 * int64_t{shift[e]};
    const double sum = double(mag & 0x3FFFF) * pow2[s] + double((mag >> 18) & 0x3FFFF) * pow2[s + 1] +
                       double(mag >> 36) * pow2[s + 2];
    const double r = reduce_mod(sum, p, inverse);  // md.reduce would read md in the loop: not vectorised
    out[e] = (r - p * double(r > half)) * double((sig > 0) - (sig < 0));
  }
}

// out[e] = c[e] mod p for count DGEMM results.
OZREF_VECTOR_CLONES void reduce_sums(const double* c, size_t count, const Modulus& md, double* out) {
#pragma omp simd
  for (size_t e = 0; e < count; ++e) out[e] = md.reduce_sum(c[e]);
}

constexpr size_t kBlock = 64;  // elements rebuilt together, so that their chains interleave

// Garner's mixed-radix digits of count_e elements (their residues mod p_i at residue[i * plane + e]),
// digit i of element e at digit[i * kBlock + e]. Every operand is an integer below 2^52.
OZREF_VECTOR_CLONES void garner_digits(const MixedRadix& mr, const double* residue, size_t plane,
                                       size_t count_e, double* digit) {
  for (size_t i = 0; i < mr.moduli.size(); ++i) {
    const Modulus& md = mr.moduli[i];
    double* d = &digit[i * kBlock];
    std::fill(d, d + kBlock, 0.0);
    for (size_t j = i; j-- > 0;) {  // t = v_0 + p_0 (v_1 + p_1 (... v_(i-1))) mod p_i
      const double radix = mr.radix[i][j];
      const double* v = &digit[j * kBlock];
#pragma omp simd
      for (size_t e = 0; e < count_e; ++e) d[e] = md.reduce(d[e] * radix + v[e]);
    }
    const double inverse = mr.inverse[i];
    const double* r = &residue[i * plane];
#pragma omp simd
    for (size_t e = 0; e < count_e; ++e) d[e] = md.reduce((r[e] - d[e]) * inverse);
  }
}

// Elements [first, first + count_e) from their residues (mod p_i at residues[i * plane + idx]):
// Garner's digits, then Horner's rule in 64-bit words, then the balanced representative.
void rebuild(const MixedRadix& mr, const double* residues, size_t plane, size_t first,
             size_t count_e, std::vector<double>& digit, WideIntegerMatrix& c) {
  const size_t count = mr.moduli.size();
  garner_digits(mr, residues + first, plane, count_e, digit.data());
  for (size_t e = 0; e < count_e; ++e) {
    const size_t idx = first + e;
    const std::span<uint64_t> x(c.magnitude.data() + idx * c.words, c.words);
    size_t used = 0;  // the words the value so far needs (below M, so within x; the rest stay 0)
    for (size_t i = count; i-- > 0;)
      if (const uint64_t out = multiply_add(x.first(used), uint64_t(mr.moduli[i].p), uint64_t(digit[i * kBlock + e])))
        x[used++] = out;
    // x > (M - 1) / 2 stands for x - M < 0: its magnitude is M - x.
    const bool negative = std::lexicographical_compare(mr.half.rbegin(), mr.half.rend(), x.rbegin(), x.rend());
    c.negative[idx] = negative;
    if (!negative) continue;
    unsigned borrow = 0;
    for (size_t w = 0; w < x.size(); ++w) {
      const u128 diff = u128{mr.product[w]} - x[w] - borrow;
      x[w] = static_cast<uint64_t>(diff);
      borrow = static_cast<unsigned>(diff >> 127);
    }
  }
}

int max_shift(const ScaledIntegerMatrix& x) {
  return x.shift.empty() ? 0 : *std::max_element(x.shift.begin(), x.shift.end());
}

}  // namespace

int crt_moduli_count(size_t k, long bits) { return static_cast<int>(choose_primes(k, bits).size()); }

WideIntegerMatrix crt_gemm(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b, long bits) {
  if (a.cols != b.rows) throw std::invalid_argument("crt_gemm: inner dimensions differ");
  const size_t m = a.rows, k = a.cols, n = b.cols;
  const std::vector<uint32_t> primes = choose_primes(k, bits);
  if (primes.empty()) throw std::invalid_argument("crt_gemm: no prime basis for this depth and range");
  const MixedRadix mr = mixed_radix(primes, std::max(max_shift(a), max_shift(b)));
  const size_t count = primes.size();

  WideIntegerMatrix c;
  c.rows = m;
  c.cols = n;
  c.words = mr.product.size();
  c.magnitude.assign(m * n * c.words, 0);
  c.negative.assign(m * n, 0);
  const size_t plane = m * n;
  // Buffers of residues, every element written before it is read: left uninitialised (zeroing
  // them would cost a sizeable part of the work outside the DGEMMs).
  const std::unique_ptr<double[]> residues(new double[count * plane]);  // of C, prime by prime
  const std::unique_ptr<double[]> br(new double[count * k * n]);        // of B, prime by prime
  openblas_set_num_threads(1);  // OpenBLAS's own threads would compete with OpenMP's
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (size_t row = 0; row < k; ++row)
      for (size_t i = 0; i < count; ++i) balanced_residues(b, row * n, n, mr.moduli[i], &br[(i * k + row) * n]);
    // From here each thread works alone on its band of rows of A and C (no waiting on the others).
    const size_t threads = size_t(omp_get_num_threads()), me = size_t(omp_get_thread_num());
    const size_t row0 = m * me / threads, rows = m * (me + 1) / threads - row0;
    const std::unique_ptr<double[]> ar(new double[rows * k]), cr(new double[rows * n]);
    for (size_t i = 0; i < count && rows && n && k; ++i) {
      const Modulus& md = mr.moduli[i];
      balanced_residues(a, row0 * k, rows * k, md, ar.get());
      cblas_dgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, int(rows), int(n), int(k), 1.0,
                  ar.get(), int(k), br.get() + i * k * n, int(n), 0.0, cr.get(), int(n));
      reduce_sums(cr.get(), rows * n, md, residues.get() + i * plane + row0 * n);
    }
    std::vector<double> digit(count * kBlock);
    for (size_t first = row0 * n; first < (row0 + rows) * n; first += kBlock)
      rebuild(mr, residues.get(), plane, first, std::min(kBlock, (row0 + rows) * n - first), digit, c);
  }
  return c;
}

}  // namespace ozref
