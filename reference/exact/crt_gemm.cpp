#include "exact/crt_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <cmath>
#include <stdexcept>

#include "common/blas.hpp"
#include "common/phase_clock.hpp"
#include "common/vector_clones.hpp"
#include "exact/int8_residue_gemm.hpp"
#include "exact/modular.hpp"

namespace ozref {
namespace {

using u128 = unsigned __int128;

constexpr uint32_t kLargestPrime = (1u << 26) - 1;  // Garner multiplies two residues: below 2^52
constexpr uint32_t kSmallestPrime = 1u << 12;      // keeps x / p below 2^41 in reduce_mod
constexpr int kMaxModuli = 512;

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
  std::vector<uint64_t> p;                   // the moduli as integers
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
    const uint64_t p = primes[i];
    mr.moduli[i] = make_modulus(primes[i], max_shift);
    mr.p.push_back(p);
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
  mr.half = mr.product;  // M >> 1: (M - 1) / 2 for odd M, M / 2 for even (no |C| reaches it)
  for (size_t w = 0; w < mr.half.size(); ++w)
    mr.half[w] = (mr.half[w] >> 1) | (w + 1 < mr.half.size() ? mr.half[w + 1] << 63 : 0);
  return mr;
}

// out[e] = c[e] mod p for count DGEMM results.
OZREF_VECTOR_CLONES void reduce_sums(const double* c, size_t count, const Modulus& md, int32_t* out) {
#pragma omp simd
  for (size_t e = 0; e < count; ++e) out[e] = int32_t(md.reduce_sum(c[e]));
}

constexpr size_t kBlock = 64;  // elements rebuilt together, so that their chains interleave

// Garner's mixed-radix digits of count_e elements (their residues mod p_i at residue[i * plane + e]),
// digit i of element e at digit[i * kBlock + e]. Every operand is an integer below 2^52.
OZREF_VECTOR_CLONES void garner_digits(const MixedRadix& mr, const int32_t* residue, size_t plane,
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
    const int32_t* r = &residue[i * plane];
#pragma omp simd
    for (size_t e = 0; e < count_e; ++e) d[e] = md.reduce((double(r[e]) - d[e]) * inverse);
  }
}

// Elements [first, first + count_e) from their residues (mod p_i at residues[i * plane + idx]) into
// `out` (kBlock elements' words and signs): Garner's digits, then Horner's rule in 64-bit words,
// then the balanced representative.
struct BlockBuffer {
  std::vector<double> digit;
  std::vector<uint64_t> magnitude;
  std::vector<uint8_t> negative;
};

void rebuild(const MixedRadix& mr, const int32_t* residues, size_t plane, size_t first, size_t count_e,
             BlockBuffer& out) {
  const size_t count = mr.moduli.size(), words = mr.product.size();
  garner_digits(mr, residues + first, plane, count_e, out.digit.data());
  std::fill(out.magnitude.begin(), out.magnitude.end(), 0);
  for (size_t e = 0; e < count_e; ++e) {
    const std::span<uint64_t> x(out.magnitude.data() + e * words, words);
    size_t used = 0;  // the words the value so far needs (below M, so within x; the rest stay 0)
    // Two digits a step: x = x p_(i-1) p_(i-2) + (v_(i-1) p_(i-2) + v_(i-2)), both below 2^52.
    // (Through int64_t: a double's conversion to uint64_t branches on the sign bit.)
    for (size_t i = count; i > 0;) {
      const uint64_t p = mr.p[i - 1], v = uint64_t(int64_t(out.digit[(i - 1) * kBlock + e]));
      const bool pair = i >= 2;
      const uint64_t q = pair ? mr.p[i - 2] : 1, w = pair ? uint64_t(int64_t(out.digit[(i - 2) * kBlock + e])) : 0;
      i -= pair ? 2 : 1;
      if (const uint64_t carry = multiply_add(x.first(used), pair ? p * q : p, pair ? v * q + w : v)) x[used++] = carry;
    }
    // x > (M - 1) / 2 stands for x - M < 0: its magnitude is M - x.
    const bool negative = std::lexicographical_compare(mr.half.rbegin(), mr.half.rend(), x.rbegin(), x.rend());
    out.negative[e] = negative;
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

// The moduli for Garner's algorithm and, in the int8 mode, the int8 moduli each is the product of.
struct Plan {
  std::vector<uint32_t> moduli;
  std::vector<std::vector<uint32_t>> small;  // empty in the DGEMM mode
};

// The int8 mode where K, the range and the operands' shifts allow it (its moduli multiply to about
// 2^350), else primes for DGEMMs. Either way the moduli multiply to at least 2^(bits + 1).
Plan make_plan(size_t k, long bits, int max_shift) {
  Plan plan;
  if (k <= kInt8MaxDepth && max_shift <= kInt8MaxShift) {
    double log2_product = 0;
    const std::vector<uint32_t>& list = int8_moduli();
    for (size_t i = 0; i < list.size() && log2_product < double(bits) + 1.001; ++i) {
      if (i % 3 == 0) plan.small.emplace_back(), plan.moduli.push_back(1);
      plan.small.back().push_back(list[i]);
      plan.moduli.back() *= list[i];
      log2_product += std::log2(double(list[i]));
    }
    if (log2_product >= double(bits) + 1.001) return plan;
    plan = {};
  }
  plan.moduli = choose_primes(k, bits);
  return plan;
}

// x with rows and columns exchanged, in tiles so that both sides stay in cache.
ScaledIntegerMatrix transposed(const ScaledIntegerMatrix& x) {
  const PhaseTimer timer(Phase::Scaling);
  constexpr size_t kTile = 32;
  ScaledIntegerMatrix t{x.cols, x.rows, Buffer<int64_t>(x.significand.size()), Buffer<uint16_t>(x.shift.size())};
#pragma omp parallel for schedule(static)
  for (size_t i0 = 0; i0 < x.rows; i0 += kTile)
    for (size_t j0 = 0; j0 < x.cols; j0 += kTile)
      for (size_t i = i0; i < std::min(x.rows, i0 + kTile); ++i)
        for (size_t j = j0; j < std::min(x.cols, j0 + kTile); ++j) {
          t.significand[j * x.rows + i] = x.significand[i * x.cols + j];
          t.shift[j * x.rows + i] = x.shift[i * x.cols + j];
        }
  return t;
}

// residues[i * m * n + idx] = (a b)[idx] mod p_i by one exact DGEMM per prime, each OpenMP thread
// on its own band of rows with a single-threaded OpenBLAS (whose own threads would compete).
void dgemm_residues(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b, const MixedRadix& mr,
                    int32_t* residues) {
  const size_t m = a.rows, k = a.cols, n = b.cols, count = mr.moduli.size(), plane = m * n;
  const PhaseTimer timer(Phase::ResidueGemms);  // the residues of the operands too, formed between the DGEMMs
  const std::unique_ptr<double[]> br(new double[count * k * n]);  // of B, prime by prime; all written
  openblas_set_num_threads(1);
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (size_t row = 0; row < k; ++row)
      for (size_t i = 0; i < count; ++i) balanced_residues(b, row * n, n, mr.moduli[i], &br[(i * k + row) * n]);
    const size_t threads = size_t(omp_get_num_threads()), me = size_t(omp_get_thread_num());
    const size_t row0 = m * me / threads, rows = m * (me + 1) / threads - row0;
    const std::unique_ptr<double[]> ar(new double[rows * k]), cr(new double[rows * n]);
    for (size_t i = 0; i < count && rows && n && k; ++i) {
      const Modulus& md = mr.moduli[i];
      balanced_residues(a, row0 * k, rows * k, md, ar.get());
      cblas_dgemm(blas::kRowMajor, blas::kNoTrans, blas::kNoTrans, int(rows), int(n), int(k), 1.0,
                  ar.get(), int(k), br.get() + i * k * n, int(n), 0.0, cr.get(), int(n));
      reduce_sums(cr.get(), rows * n, md, residues + i * plane + row0 * n);
    }
  }
}

}  // namespace

CrtPlan crt_plan(size_t k, long bits) {
  // Shifts taken to be within range: exact_gemm's are at most bits + 1, within kInt8MaxShift
  // wherever the int8 mode's moduli suffice.
  const Plan plan = make_plan(k, bits, 0);
  CrtPlan p{.moduli = int(plan.moduli.size()), .int8 = !plan.small.empty()};
  for (const auto& g : plan.small) p.gemms += int(g.size());
  if (!p.int8) p.gemms = p.moduli;
  return p;
}

void crt_gemm(ScaledIntegerMatrix a, ScaledIntegerMatrix b_transposed, long bits, const ProductSink& sink) {
  if (a.cols != b_transposed.cols) throw std::invalid_argument("crt_gemm: inner dimensions differ");
  const size_t m = a.rows, k = a.cols, n = b_transposed.rows;
  const int shift = std::max(max_shift(a), max_shift(b_transposed));
  const Plan plan = make_plan(k, bits, shift);
  if (plan.moduli.empty()) throw std::invalid_argument("crt_gemm: no prime basis for this depth and range");
  const MixedRadix mr = mixed_radix(plan.moduli, shift);
  const size_t count = plan.moduli.size(), plane = m * n, words = mr.product.size();
  // Residues of C, modulus by modulus, every element written before it is read: left
  // uninitialised (zeroing them would cost a sizeable part of the work outside the GEMMs). In the
  // int8 mode they are allocated once the scaled operands are released, so that they take the
  // operands' memory rather than fresh pages (whose faults cost more than the zeroing would).
  // Every modulus is below 2^26, so 32-bit integers hold them: half the pages and the traffic of
  // doubles.
  std::unique_ptr<int32_t[]> residues;
  if (plan.small.empty()) {
    const ScaledIntegerMatrix b = transposed(b_transposed);  // the DGEMMs take B's rows
    b_transposed = {};
    residues.reset(new int32_t[count * plane]);
    dgemm_residues(a, b, mr, residues.get());
  } else {
    const Int8Operands operands = int8_operands(a, b_transposed, mr.moduli, plan.small);
    a = {};
    b_transposed = {};
    residues.reset(new int32_t[count * plane]);
    int8_residue_gemm(operands, mr.moduli, plan.small, residues.get());
  }
  const PhaseTimer timer(Phase::Rebuild);
#pragma omp parallel
  {
    const size_t threads = size_t(omp_get_num_threads()), me = size_t(omp_get_thread_num());
    const size_t first0 = plane * me / threads, last = plane * (me + 1) / threads;
    BlockBuffer buffer{std::vector<double>(count * kBlock), std::vector<uint64_t>(kBlock * words),
                       std::vector<uint8_t>(kBlock)};
    for (size_t first = first0; first < last; first += kBlock) {
      const size_t len = std::min(kBlock, last - first);
      rebuild(mr, residues.get(), plane, first, len, buffer);
      sink({first, len, words, buffer.magnitude.data(), buffer.negative.data()});
    }
  }
}

WideIntegerMatrix crt_gemm(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b, long bits) {
  WideIntegerMatrix c;
  c.rows = a.rows;
  c.cols = b.cols;
  c.negative.assign(c.rows * c.cols, 0);
  crt_gemm(ScaledIntegerMatrix(a), transposed(b), bits, [&](const ProductBlock& block) {
#pragma omp critical(crt_gemm_words)
    if (c.magnitude.empty()) c.words = block.words, c.magnitude.assign(c.negative.size() * block.words, 0);
    std::copy_n(block.magnitude, block.count * block.words, c.magnitude.begin() + long(block.first * block.words));
    std::copy_n(block.negative, block.count, c.negative.begin() + long(block.first));
  });
  return c;
}

}  // namespace ozref
