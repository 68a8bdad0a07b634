#include "exact/int8_residue_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <span>
#include <stdexcept>

#include "common/phase_clock.hpp"
#include "common/vector_clones.hpp"
#include "mma/int8_gemm.hpp"

namespace ozref {
namespace {

constexpr size_t kChunk = 256;  // elements whose residues modulo P are formed together

int64_t inverse_mod_small(int64_t a, int64_t m) {  // a^-1 mod m by trial (m <= 256, gcd(a, m) = 1)
  for (int64_t x = 1; x < m; ++x)
    if (a * x % m == 1) return x;
  return 0;  // m = 1
}

// out[e] = v[e] mod m as a byte in [lo, hi] = [-floor(m / 2), lo + m - 1] (within [-128, 127]),
// for |v| < 2^25: the quotient rounded to nearest (by adding and subtracting 1.5 * 2^52; std::floor
// would not vectorise) leaves a remainder within m / 2 and a little, which one step moves into
// [lo, hi].
OZREF_VECTOR_CLONES void balanced_bytes(const double* v, size_t count, double m, int8_t* out) {
  const double inverse = 1.0 / m, lo = -std::floor(m / 2), hi = lo + m - 1;
#pragma omp simd
  for (size_t e = 0; e < count; ++e) {
    double r = v[e] - ((v[e] * inverse + 0x1.8p52) - 0x1.8p52) * m;
    r += m * double(r < lo) - m * double(r > hi);
    out[e] = static_cast<int8_t>(static_cast<int32_t>(r));
  }
}

constexpr int kLimbBits = 24;

// The number of 24-bit limbs that hold every element of x (significand below 2^53 times 2^shift):
// at most 17 for shifts up to kInt8MaxShift, so that limb sums stay below 17 * 2^48 < 2^53.
size_t limb_count(const ScaledIntegerMatrix& x) {
  const int shift = x.shift.empty() ? 0 : *std::max_element(x.shift.begin(), x.shift.end());
  if (shift > kInt8MaxShift) throw std::logic_error("int8_residue_gemm: a shift beyond kInt8MaxShift");
  return size_t(shift + 53 + kLimbBits - 1) / kLimbBits;
}

// Elements [first, first + count) of x as |x| = sum_j limb[j * kChunk + e] 2^(24 j), and their signs:
// limb j is bits [24 j, 24 j + 24) of |significand| << shift, got by one variable shift.
OZREF_VECTOR_CLONES void limbs_of(const ScaledIntegerMatrix& x, size_t first, size_t count, size_t limbs,
                                  double* limb, double* sign) {
  const int64_t* significand = x.significand.data() + first;
  const uint16_t* shift = x.shift.data() + first;
  for (size_t j = 0; j < limbs; ++j) {
#pragma omp simd
    for (size_t e = 0; e < count; ++e) {
      const uint64_t mag = uint64_t(std::abs(significand[e]));
      const int64_t d = int64_t(kLimbBits * j) - shift[e];  // where the limb starts in mag
      // Shift counts clamped to 63 (mag < 2^53: a right shift by 63 leaves 0, a left shift by 40
      // or more leaves the limb's 24 bits 0); selects rather than branches, so that it vectorises.
      const int64_t right = std::min<int64_t>(d > 0 ? d : 0, 63), left = std::min<int64_t>(d < 0 ? -d : 0, 63);
      limb[j * kChunk + e] = double(int64_t(((mag >> right) << left) & ((uint64_t{1} << kLimbBits) - 1)));
    }
  }
#pragma omp simd
  for (size_t e = 0; e < count; ++e) sign[e] = double((significand[e] > 0) - (significand[e] < 0));
}

// out[e] = the balanced residue modulo P of sign[e] * sum_j limb_j 2^(24 j), |out| <= P / 2: each
// limb times 2^(24 j) mod P is below 2^48, the sum of at most 17 below 2^53 and exact.
OZREF_VECTOR_CLONES void residues_of_limbs(const double* limb, const double* sign, size_t count, size_t limbs,
                                           const double* unit, double p, double* out) {
  const double inverse = 1.0 / p, half = p / 2;
#pragma omp simd
  for (size_t e = 0; e < count; ++e) out[e] = 0;
  for (size_t j = 0; j < limbs; ++j) {
    const double u = unit[j];
#pragma omp simd
    for (size_t e = 0; e < count; ++e) out[e] += limb[j * kChunk + e] * u;
  }
#pragma omp simd
  for (size_t e = 0; e < count; ++e) {
    const double r = reduce_mod(out[e], p, inverse);
    out[e] = (r - p * double(r > half)) * sign[e];
  }
}

// 2^(24 j) mod P for each group's P, j < limbs.
std::vector<std::vector<double>> limb_units(const std::vector<Modulus>& groups, size_t limbs) {
  std::vector<std::vector<double>> units(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    const uint64_t p = uint64_t(groups[g].p);
    uint64_t v = 1 % p;
    for (size_t j = 0; j < limbs; ++j, v = (v << kLimbBits) % p) units[g].push_back(double(v));
  }
  return units;
}

// The int8 residues of elements [first, first + count) of x modulo every m of every group
// (bytes[g][t] for small[g][t]), through the element's balanced residue modulo the group's P (at
// most P / 2 < 2^23 in magnitude), from its limbs, which are formed once for all groups.
void operand_bytes(const ScaledIntegerMatrix& x, size_t first, size_t count, const std::vector<Modulus>& groups,
                   const std::vector<std::vector<uint32_t>>& small, const std::vector<std::vector<double>>& units,
                   std::vector<std::vector<std::unique_ptr<int8_t[]>>>& bytes) {
  const size_t limbs = units.empty() ? 0 : units[0].size();
  std::vector<double> limb(limbs * kChunk);
  double sign[kChunk], v[kChunk];
  for (size_t c0 = first; c0 < first + count; c0 += kChunk) {
    const size_t len = std::min(kChunk, first + count - c0);
    limbs_of(x, c0, len, limbs, limb.data(), sign);
    for (size_t g = 0; g < groups.size(); ++g) {
      residues_of_limbs(limb.data(), sign, len, limbs, units[g].data(), groups[g].p, v);
      for (size_t t = 0; t < small[g].size(); ++t) balanced_bytes(v, len, double(small[g][t]), bytes[g][t].get() + c0);
    }
  }
}

// out[idx] = sum_t (d_t[idx] mod m_t) * u_t mod P, u_t = 1 mod m_t and 0 modulo the others: the sum
// is below 3 * 2^8 * 2^24 < 2^34, exact, and one reduction gives the residue modulo P.
OZREF_VECTOR_CLONES void join_residues(const uint32_t* d0, const uint32_t* d1, const uint32_t* d2, size_t count,
                                       const double* mods, const double* units, double p, int32_t* out) {
  // Copies, so that the loop does not read them again through `out`, which might alias them.
  const double m0 = mods[0], m1 = mods[1], m2 = mods[2], u0 = units[0], u1 = units[1], u2 = units[2];
  const double i0 = 1.0 / m0, i1 = 1.0 / m1, i2 = 1.0 / m2, inverse = 1.0 / p;
#pragma omp simd
  for (size_t e = 0; e < count; ++e) {
    const double r0 = reduce_mod(double(int32_t(d0[e])), m0, i0);
    const double r1 = reduce_mod(double(int32_t(d1[e])), m1, i1);
    const double r2 = reduce_mod(double(int32_t(d2[e])), m2, i2);
    out[e] = int32_t(reduce_mod(r0 * u0 + r1 * u1 + r2 * u2, p, inverse));
  }
}

// The same without reducing each d_t first, where |d_t| <= K 2^14 keeps the sum below 3 K 2^38 <= 2^52
// (K up to 5547 for the largest P): one reduction in place of four.
OZREF_VECTOR_CLONES void join_sums(const uint32_t* d0, const uint32_t* d1, const uint32_t* d2, size_t count,
                                   const double* units, double p, int32_t* out) {
  const double u0 = units[0], u1 = units[1], u2 = units[2], inverse = 1.0 / p;
#pragma omp simd
  for (size_t e = 0; e < count; ++e)
    out[e] = int32_t(reduce_mod(double(int32_t(d0[e])) * u0 + double(int32_t(d1[e])) * u1 + double(int32_t(d2[e])) * u2, p, inverse));
}

using Bytes = std::vector<std::vector<std::unique_ptr<int8_t[]>>>;  // [group][m of the group]

// Every operand's bytes modulo every m of every group, each row of x (of `len` elements) at once.
Bytes all_bytes(const ScaledIntegerMatrix& x, const std::vector<Modulus>& groups,
                const std::vector<std::vector<uint32_t>>& small) {
  const PhaseTimer timer(Phase::OperandResidues);
  const size_t rows = x.rows, len = x.cols, limbs = limb_count(x);
  const std::vector<std::vector<double>> units = limb_units(groups, limbs);
  Bytes bytes(groups.size());
  for (size_t g = 0; g < groups.size(); ++g)
    for (size_t t = 0; t < small[g].size(); ++t) bytes[g].emplace_back(new int8_t[rows * len]);  // all written
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < rows; ++i) operand_bytes(x, i * len, len, groups, small, units, bytes);
  return bytes;
}

// The residues of one group from its operands' bytes: one int8 GEMM per m into d[t] (m x n
// each, reused from group to group: fresh pages would cost their faults every time), the join.
void group_residues(size_t m, size_t n, size_t k, const std::vector<std::unique_ptr<int8_t[]>>& ra,
                    const std::vector<std::unique_ptr<int8_t[]>>& rb, const Modulus& group,
                    const std::vector<uint32_t>& small, const std::unique_ptr<uint32_t[]> (&d)[3], int32_t* out) {
  const size_t count = small.size();
  double mods[3] = {1, 1, 1}, units[3] = {0, 0, 0};
  for (size_t t = 0; t < count; ++t) {
    const mma::Int8GemmShape shape{m, n, k, true, true};
    mma::int8_gemm_wrapping(shape, {reinterpret_cast<const uint8_t*>(ra[t].get()), m * k},
                            {reinterpret_cast<const uint8_t*>(rb[t].get()), n * k}, {}, {d[t].get(), m * n},
                            omp_get_max_threads());
    const int64_t rest = int64_t(group.p) / small[t];  // the product of the group's other moduli
    mods[t] = small[t];
    units[t] = double(rest * inverse_mod_small(rest % small[t], small[t]));
  }
  const uint32_t* dt[3];
  for (size_t t = 0; t < 3; ++t) dt[t] = d[std::min(t, count - 1)].get();  // an absent m: modulus 1, unit 0
  const bool direct = 3.0 * double(k) * 0x1p14 * group.p <= 0x1p52;  // every unit is below P
  const size_t rows_per_block = std::max<size_t>(1, 4096 / std::max<size_t>(n, 1));
#pragma omp parallel for schedule(static)
  for (size_t i0 = 0; i0 < m; i0 += rows_per_block) {
    const size_t first = i0 * n, len = (std::min(m, i0 + rows_per_block) - i0) * n;
    if (direct) join_sums(dt[0] + first, dt[1] + first, dt[2] + first, len, units, group.p, out + first);
    else join_residues(dt[0] + first, dt[1] + first, dt[2] + first, len, mods, units, group.p, out + first);
  }
}

}  // namespace

const std::vector<uint32_t>& int8_moduli() {
  static const std::vector<uint32_t> list = [] {
    std::vector<uint32_t> l;
    for (uint32_t x = 256; x >= 2; --x)
      if (std::all_of(l.begin(), l.end(), [&](uint32_t y) { return std::gcd(x, y) == 1; })) l.push_back(x);
    return l;
  }();
  return list;
}

Int8Operands int8_operands(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b_transposed,
                           const std::vector<Modulus>& groups, const std::vector<std::vector<uint32_t>>& small) {
  return {a.rows, b_transposed.rows, a.cols, all_bytes(a, groups, small), all_bytes(b_transposed, groups, small)};
}

void int8_residue_gemm(const Int8Operands& operands, const std::vector<Modulus>& groups,
                       const std::vector<std::vector<uint32_t>>& small, int32_t* residues) {
  const size_t m = operands.m, n = operands.n, k = operands.k, plane = m * n;
  const PhaseTimer timer(Phase::ResidueGemms);
  const std::unique_ptr<uint32_t[]> d[3] = {std::unique_ptr<uint32_t[]>(new uint32_t[plane]),  // every element
                                            std::unique_ptr<uint32_t[]>(new uint32_t[plane]),  // written by a GEMM
                                            std::unique_ptr<uint32_t[]>(new uint32_t[plane])};  // before it is read
  for (size_t g = 0; g < groups.size(); ++g)
    group_residues(m, n, k, operands.a[g], operands.b[g], groups[g], small[g], d, residues + g * plane);
}

}  // namespace ozref
