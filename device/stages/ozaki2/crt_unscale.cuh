// The fused kernels' per-thread bodies (crt_unscale.cu), host and device code so that
// tests/device/t-fused-crt-unscale.cpp runs on the CPU exactly what each GPU thread runs: E
// consecutive elements of one row of C (E divides n), each element's CRT (crt_element.cuh) rounded
// at once (unscale_element_of), the wide C' never written; for a complex run the complex stage's
// combination too (gaussian.cuh, three_m.cuh), formed as the CRT reads each modulus's plane
// products, so that neither Re, Im residues nor C' are written.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "stages/ozaki2/crt_element.cuh"
#include "stages/ozaki2/gaussian.cuh"
#include "stages/ozaki2/three_m.cuh"

namespace ozref::device::ozaki2 {

// Part `part` (0: Re, 1: Im) of E elements modulo modulus t from the Gaussian plane products Z, W.
template <int E>
struct GaussianResidues {
  const int16_t* z;  // modulus 0's Z of the elements; modulus t's Z at z[2 t mn], its W at z[(2 t + 1) mn]
  size_t mn;
  int part;
  const GaussianTable* g;
  OZREF_HD_INLINE void operator()(int t, int32_t (&rt)[E]) const {
    int32_t zt[E], wt[E];
    load_residues<E>(z + 2 * static_cast<size_t>(t) * mn, zt);
    load_residues<E>(z + (2 * static_cast<size_t>(t) + 1) * mn, wt);
    for (int e = 0; e < E; ++e) rt[e] = part == 0 ? gaussian_real(zt[e], wt[e], g->m[t], g->c[t]) : gaussian_imag(zt[e], wt[e], g->m[t], g->c[t]);
  }
};

// The moduli by value, for the 3M kernel's parameters.
struct ModuliTable {
  int32_t m[kMaxCrtModuli];
};
inline ModuliTable moduli_table(const std::vector<int64_t>& moduli) {  // host code
  if (moduli.size() > static_cast<size_t>(kMaxCrtModuli)) throw std::invalid_argument("3m twin: more than " + std::to_string(kMaxCrtModuli) + " moduli");
  ModuliTable t{};
  for (size_t i = 0; i < moduli.size(); ++i) t.m[i] = static_cast<int32_t>(moduli[i]);
  return t;
}

// Part `part` of E elements modulo modulus t from the 3M plane products T1, T2, T3.
template <int E>
struct ThreeMResidues {
  const int16_t* t1;  // modulus 0's T1 of the elements; modulus t's Tq at t1[(3 t + q - 1) mn]
  size_t mn;
  int part;
  const ModuliTable* moduli;
  OZREF_HD_INLINE void operator()(int t, int32_t (&rt)[E]) const {
    int32_t a[E], b[E], c[E] = {};
    load_residues<E>(t1 + 3 * static_cast<size_t>(t) * mn, a);
    load_residues<E>(t1 + (3 * static_cast<size_t>(t) + 1) * mn, b);
    if (part == 1) load_residues<E>(t1 + (3 * static_cast<size_t>(t) + 2) * mn, c);  // Re needs no T3
    for (int e = 0; e < E; ++e) rt[e] = part == 0 ? three_m_real(a[e], b[e], moduli->m[t]) : three_m_imag(a[e], b[e], c[e], moduli->m[t]);
  }
};

// Element x of a parts x m x n result: its part o, its element v within the part, its row i and column j.
struct ElementIndex {
  size_t o, v, i, j;
};
OZREF_HD_INLINE ElementIndex element_index(size_t x, size_t m, size_t n) {
  const size_t mn = m * n, o = index_quotient(x, mn), v = x - o * mn, i = index_quotient(v, n);
  return {o, v, i, v - i * n};
}

// out[e] = C'_e 2^-(row_shift + col_shift[e]) rounded, e < E, for the E elements whose residues
// modulo modulus t residues(t, r) gives.
template <int words, int E, typename Residues>
OZREF_HD_INLINE void crt_unscale_into(const Residues& residues, const CrtConstants<words>& k, int32_t row_shift, const int32_t* col_shift,
                                      double* out) {
  uint64_t c[E][words];
  crt_elements_from<words, E>(residues, k, c);
  for (int e = 0; e < E; ++e) out[e] = unscale_element_of<words>(reinterpret_cast<const int64_t*>(c[e]), 0, 0, -(row_shift + col_shift[e]));
}

// The three bodies, for the elements x .. x + E - 1 of the result (x a multiple of E): from the
// stored residues (S x m x n, modulus t's at stride S mn), from the Gaussian plane products
// (N x 2 x m x n) and from the 3M plane products (N x 3 x m x n).
template <int words, int E>
OZREF_HD_INLINE void crt_unscale_elements(size_t x, const int16_t* residues, size_t S, size_t m, size_t n, const CrtConstants<words>& k,
                                          const int32_t* row, const int32_t* col, double* out) {
  const ElementIndex at = element_index(x, m, n);
  crt_unscale_into<words, E>(StoredResidues<E>{residues + at.o * m * n + at.v, S * m * n}, k, row[at.i], col + at.j, out + x);
}
template <int words, int E>
OZREF_HD_INLINE void gaussian_crt_unscale_elements(size_t x, const int16_t* products, size_t m, size_t n, const CrtConstants<words>& k,
                                                   const GaussianTable& g, const int32_t* row, const int32_t* col, double* out) {
  const ElementIndex at = element_index(x, m, n);
  crt_unscale_into<words, E>(GaussianResidues<E>{products + at.v, m * n, static_cast<int>(at.o), &g}, k, row[at.i], col + at.j, out + x);
}
template <int words, int E>
OZREF_HD_INLINE void three_m_crt_unscale_elements(size_t x, const int16_t* products, size_t m, size_t n, const CrtConstants<words>& k,
                                                  const ModuliTable& moduli, const int32_t* row, const int32_t* col, double* out) {
  const ElementIndex at = element_index(x, m, n);
  crt_unscale_into<words, E>(ThreeMResidues<E>{products + at.v, m * n, static_cast<int>(at.o), &moduli}, k, row[at.i], col + at.j, out + x);
}

}  // namespace ozref::device::ozaki2
