// The exact CRT of a group of E consecutive elements, the crt stage's twin and the emulated GEMM's
// fused crt + unscale: the unique integer C' in (floor(P/2) - P, floor(P/2)] with the given
// residues, so any exact method gives the CPU's integer. This one runs at the FP64 rate with no
// table loads: the weights w_t = q_t P / p_t are cut into 32-bit limbs held exactly in doubles and
// passed as a kernel parameter (constant operands of the unrolled loop), and
//   L_j = sum_t r_t w_tj            exact in FP64: |L_j| < R 2^32 <= 2^50 (R = sum_t max |r_t| < 2^18),
//   q   = rint(sum_t r_t (w_t / P)) the quotient S / P, off by far less than 1/2 (error < 2^-29),
//   D_j = L_j - q P_j              exact (one fma): |D_j| < (2R + 1) 2^32 < 2^51,
//   C'  = sum_j D_j 2^(32 j)       carried into 64-bit words, then moved into the range by one step.
// Host and device code: tests/device/t-twin-arithmetic.cpp holds it to GMP where no GPU is present.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "stages/ozaki2/arith.cuh"
#include "stages/ozaki2/twins.hpp"

namespace ozref::device::ozaki2 {

constexpr int kMaxCrtModuli = 48;  // more than P's kMaxWords words hold of the smallest moduli used

// The CRT's constants for P of `words` 64-bit words, by value in a kernel's parameters.
template <int words>
struct CrtConstants {
  static constexpr int kLimbs = 2 * words;
  int moduli = 0;
  double weight_limb[kMaxCrtModuli][kLimbs];  // w_t's 32-bit limbs, least significant first
  double weight_fraction[kMaxCrtModuli];      // w_t / P rounded: the quotient's estimate
  double product_limb[kLimbs];                // P's 32-bit limbs
  uint64_t product[words], half[words], low[words];  // P, floor(P/2), floor(P/2) - P
};
static_assert(sizeof(CrtConstants<kMaxWords>) <= 32764, "kernel parameters are limited to 32764 bytes");

// The constants from the tables (host code).
template <int words>
CrtConstants<words> crt_constants(const CrtTables& t) {
  constexpr int L = CrtConstants<words>::kLimbs;
  const size_t N = t.weight_fractions.size();
  if (t.words != static_cast<size_t>(words) || t.weight_limbs.size() != N * L)
    throw std::logic_error("crt twin: tables of " + std::to_string(t.words) + " words for a kernel of " + std::to_string(words));
  if (N > static_cast<size_t>(kMaxCrtModuli))
    throw std::invalid_argument("crt twin: " + std::to_string(N) + " moduli, more than the " + std::to_string(kMaxCrtModuli) + " it takes");
  CrtConstants<words> k{};
  k.moduli = static_cast<int>(N);
  for (size_t i = 0; i < N; ++i) {
    for (int j = 0; j < L; ++j) k.weight_limb[i][j] = t.weight_limbs[i * L + static_cast<size_t>(j)];
    k.weight_fraction[i] = t.weight_fractions[i];
  }
  for (int i = 0; i < words; ++i) {
    k.product[i] = t.product[static_cast<size_t>(i)];
    k.product_limb[2 * i] = static_cast<double>(k.product[i] & 0xFFFFFFFFu);
    k.product_limb[2 * i + 1] = static_cast<double>(k.product[i] >> 32);
  }
  for (int i = 0; i < words; ++i) k.half[i] = k.product[i] >> 1 | (i + 1 < words ? k.product[i + 1] << 63 : 0);
  for (int i = 0; i < words; ++i) k.low[i] = k.half[i];
  wide_sub(k.low, k.product, words);
  return k;
}

// E consecutive residues (E of them 2E-byte aligned: one load on the device).
template <int E>
OZREF_HD_INLINE void load_residues(const int16_t* p, int32_t (&r)[E]) {
#ifdef __CUDA_ARCH__
  struct alignas(2 * E) Pack {
    int16_t v[E];
  };
  const Pack pack = *reinterpret_cast<const Pack*>(p);
  for (int e = 0; e < E; ++e) r[e] = pack.v[e];
#else
  for (int e = 0; e < E; ++e) r[e] = p[e];
#endif
}

// C' (in the range) from its limb sums and quotient estimate, as `words` words.
template <int words>
OZREF_HD_INLINE void crt_words_of(const double (&limb_sum)[2 * words], double estimate, const CrtConstants<words>& k, uint64_t (&c)[words]) {
  const double q = (estimate + kRoundingShift) - kRoundingShift;  // rint: |estimate| <= R + 1/2 < 2^51
  uint64_t chunk[2 * words];
  int64_t carry = 0;
  for (int j = 0; j < 2 * words; ++j) {
    carry += exact_integer(fma(-q, k.product_limb[j], limb_sum[j]));
    chunk[j] = static_cast<uint32_t>(carry);
    carry >>= 32;  // arithmetic: the sign carries up
  }
  for (int i = 0; i < words; ++i) c[i] = chunk[2 * i] | chunk[2 * i + 1] << 32;
  if (wide_greater(c, k.half, words)) wide_sub(c, k.product, words);
  if (!wide_greater(c, k.low, words)) wide_add(c, k.product, words);
}

// The residues of E elements modulo modulus t at r[t * stride + e]: the crt stage's input.
template <int E>
struct StoredResidues {
  const int16_t* r;
  size_t stride;
  OZREF_HD_INLINE void operator()(int t, int32_t (&rt)[E]) const { load_residues<E>(r + static_cast<size_t>(t) * stride, rt); }
};

// The CRT of E elements whose residues modulo modulus t `residues(t, rt)` gives.
template <int words, int E, typename Residues>
OZREF_HD_INLINE void crt_elements_from(const Residues& residues, const CrtConstants<words>& k, uint64_t (&c)[E][words]) {
  constexpr int L = CrtConstants<words>::kLimbs;
  double limb_sum[E][L] = {}, estimate[E] = {};
  OZREF_UNROLL
  for (int t = 0; t < kMaxCrtModuli; ++t) {
    if (t == k.moduli) break;
    int32_t rt[E];
    residues(t, rt);
    for (int e = 0; e < E; ++e) {
      const double x = small_integer_as_double(rt[e]);
      for (int j = 0; j < L; ++j) limb_sum[e][j] = fma(x, k.weight_limb[t][j], limb_sum[e][j]);
      estimate[e] = fma(x, k.weight_fraction[t], estimate[e]);
    }
  }
  for (int e = 0; e < E; ++e) crt_words_of<words>(limb_sum[e], estimate[e], k, c[e]);
}

// The CRT of the E elements r[e], e < E, whose residue modulo modulus t is r[t * stride + e].
template <int words, int E>
OZREF_HD_INLINE void crt_elements_of(const int16_t* r, size_t stride, const CrtConstants<words>& k, uint64_t (&c)[E][words]) {
  crt_elements_from<words, E>(StoredResidues<E>{r, stride}, k, c);
}

}  // namespace ozref::device::ozaki2
