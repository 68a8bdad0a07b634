#include "exact/int8_residue_gemm.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>
#include <span>

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

// The int8 residues of elements [first, first + count) of x modulo each m of a group, through the
// element's balanced residue modulo the group's P (at most P / 2 < 2^23 in magnitude).
void group_bytes(const ScaledIntegerMatrix& x, size_t first, size_t count, const Modulus& group,
                 const std::vector<uint32_t>& small, const std::vector<std::unique_ptr<int8_t[]>>& out) {
  double v[kChunk];
  for (size_t c0 = first; c0 < first + count; c0 += kChunk) {
    const size_t len = std::min(kChunk, first + count - c0);
    balanced_residues(x, c0, len, group, v);
    for (size_t t = 0; t < small.size(); ++t) balanced_bytes(v, len, double(small[t]), out[t].get() + c0);
  }
}

// out[idx] = sum_t (d_t[idx] mod m_t) * u_t mod P, u_t = 1 mod m_t and 0 modulo the others: the sum
// is below 3 * 2^8 * 2^24 < 2^34, exact, and one reduction gives the residue modulo P.
OZREF_VECTOR_CLONES void join_residues(const uint32_t* d0, const uint32_t* d1, const uint32_t* d2, size_t count,
                                       const double* mods, const double* units, double p, double* out) {
  // Copies, so that the loop does not read them again through `out`, which might alias them.
  const double m0 = mods[0], m1 = mods[1], m2 = mods[2], u0 = units[0], u1 = units[1], u2 = units[2];
  const double i0 = 1.0 / m0, i1 = 1.0 / m1, i2 = 1.0 / m2, inverse = 1.0 / p;
#pragma omp simd
  for (size_t e = 0; e < count; ++e) {
    const double r0 = reduce_mod(double(int32_t(d0[e])), m0, i0);
    const double r1 = reduce_mod(double(int32_t(d1[e])), m1, i1);
    const double r2 = reduce_mod(double(int32_t(d2[e])), m2, i2);
    out[e] = reduce_mod(r0 * u0 + r1 * u1 + r2 * u2, p, inverse);
  }
}

// The residues of one group: the operands' bytes, one int8 GEMM per m, the join.
void group_residues(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& bt, const Modulus& group,
                    const std::vector<uint32_t>& small, double* out) {
  const size_t m = a.rows, k = a.cols, n = bt.rows, count = small.size();
  std::vector<std::unique_ptr<int8_t[]>> ra, rb;
  std::vector<std::unique_ptr<uint32_t[]>> d;
  for (size_t t = 0; t < count; ++t) {
    ra.emplace_back(new int8_t[m * k]);  // every byte written before it is read
    rb.emplace_back(new int8_t[n * k]);
    d.emplace_back(new uint32_t[m * n]);
  }
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < m; ++i) group_bytes(a, i * k, k, group, small, ra);
#pragma omp parallel for schedule(static)
  for (size_t j = 0; j < n; ++j) group_bytes(bt, j * k, k, group, small, rb);
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
  const size_t rows_per_block = std::max<size_t>(1, 4096 / std::max<size_t>(n, 1));
#pragma omp parallel for schedule(static)
  for (size_t i0 = 0; i0 < m; i0 += rows_per_block) {
    const size_t first = i0 * n, len = (std::min(m, i0 + rows_per_block) - i0) * n;
    join_residues(dt[0] + first, dt[1] + first, dt[2] + first, len, mods, units, group.p, out + first);
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

void int8_residue_gemm(const ScaledIntegerMatrix& a, const ScaledIntegerMatrix& b_transposed,
                       const std::vector<Modulus>& groups, const std::vector<std::vector<uint32_t>>& small,
                       double* residues) {
  const size_t plane = a.rows * b_transposed.rows;
  for (size_t g = 0; g < groups.size(); ++g) group_residues(a, b_transposed, groups[g], small[g], residues + g * plane);
}

}  // namespace ozref
