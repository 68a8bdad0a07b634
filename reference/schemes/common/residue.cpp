#include "schemes/common/residue.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/vector_clones.hpp"

namespace ozref::schemes {
namespace {

int64_t balance(int64_t r, int64_t m) {  // r in [0, m)
  return r >= (m + 1) / 2 ? r - m : r;
}

int64_t pow2_mod(int e, int64_t m) {
  int64_t result = 1 % m, base = 2 % m;
  for (; e > 0; e >>= 1) {
    if (e & 1) result = result * base % m;
    base = base * base % m;
  }
  return result;
}

}  // namespace

int32_t balanced_residue(int64_t x, int64_t m) {
  int64_t r = x % m;
  if (r < 0) r += m;
  return static_cast<int32_t>(balance(r, m));
}

int32_t balanced_residue_of_integer(double x, int64_t m) {
  if (x == 0) return 0;
  if (std::fabs(x) < 0x1p62) return balanced_residue(static_cast<int64_t>(x), m);  // exact conversion
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  uint64_t sig = (bits & ((uint64_t{1} << 52) - 1)) | (field ? uint64_t{1} << 52 : 0);
  int e = (field ? field : 1) - 1075;
  if (e < 0) {  // an integer: the low -e bits of sig are zero
    sig >>= -e;
    e = 0;
  }
  int64_t r = static_cast<int64_t>(sig % static_cast<uint64_t>(m)) * pow2_mod(e, m) % m;
  if (x < 0) r = (m - r) % m;
  return static_cast<int32_t>(balance(r, m));
}

namespace {

// The kernel for either output width (inlined into each vectorised clone below).
template <typename T>
[[gnu::always_inline]] inline void residues_into(const double* x, size_t count, std::span<const int64_t> moduli, T* out, size_t stride) {
  bool small = true;  // every |x| below 2^62; false for a NaN too (a trace's), which std::max would drop
  for (size_t v = 0; v < count; ++v) small &= std::fabs(x[v]) < 0x1p62;
  if (!small) {
    for (size_t t = 0; t < moduli.size(); ++t)
      for (size_t v = 0; v < count; ++v) out[t * stride + v] = static_cast<T>(balanced_residue_of_integer(x[v], moduli[t]));
    return;
  }
  // x = h 2^32 + l with |h| < 2^30, |l| <= 2^31, so x = s = h (2^32 mod m) + l (mod m) with
  // |s| < 2^39: every step is exact in a double. q = s / m rounded to nearest (a rounding of the
  // reciprocal can move it by one near a tie), r = s - q m exact, then one step into the range.
  constexpr double kRound = 0x1.8p52;  // (y + kRound) - kRound is y rounded to an integer, |y| < 2^51
  constexpr size_t kChunk = 256;
  double h[kChunk], l[kChunk];
  for (size_t v0 = 0; v0 < count; v0 += kChunk) {
    const size_t len = std::min(kChunk, count - v0);
    for (size_t v = 0; v < len; ++v) {
      h[v] = (x[v0 + v] * 0x1p-32 + kRound) - kRound;
      l[v] = x[v0 + v] - h[v] * 0x1p32;
    }
    for (size_t t = 0; t < moduli.size(); ++t) {
      const int64_t m = moduli[t];
      const double md = static_cast<double>(m), inverse = 1 / md, c32 = static_cast<double>(pow2_mod(32, m));
      const double low = -static_cast<double>(m / 2), high = static_cast<double>((m - 1) / 2);
      T* o = out + t * stride + v0;
      for (size_t v = 0; v < len; ++v) {
        const double sum = h[v] * c32 + l[v];
        const double q = (sum * inverse + kRound) - kRound;
        double r = sum - q * md;
        r = r > high ? r - md : r;
        r = r < low ? r + md : r;
        o[v] = static_cast<T>(r);
      }
    }
  }
}

OZREF_VECTOR_CLONES void residues_kernel(const double* x, size_t count, std::span<const int64_t> moduli, int16_t* out, size_t stride) {
  residues_into(x, count, moduli, out, stride);
}
OZREF_VECTOR_CLONES void residues_kernel(const double* x, size_t count, std::span<const int64_t> moduli, int8_t* out, size_t stride) {
  residues_into(x, count, moduli, out, stride);
}

OZREF_VECTOR_CLONES void reduce_kernel(const BarrettReducer& b, const uint32_t* x, size_t count, int16_t* out) {
  for (size_t v = 0; v < count; ++v) out[v] = static_cast<int16_t>(b.reduce(static_cast<int32_t>(x[v])));
}

}  // namespace

// The cloned kernels have internal linkage: callers in other files reach them through these.
void balanced_residues(const double* x, size_t count, std::span<const int64_t> moduli, int16_t* out, size_t stride) {
  residues_kernel(x, count, moduli, out, stride);
}
void balanced_residues(const double* x, size_t count, std::span<const int64_t> moduli, int8_t* out, size_t stride) {
  residues_kernel(x, count, moduli, out, stride);
}

void BarrettReducer::reduce_all(const uint32_t* x, size_t count, int16_t* out) const { reduce_kernel(*this, x, count, out); }

BarrettReducer::BarrettReducer(int64_t modulus) : m(modulus) {
  if (modulus < 3 || modulus > (int64_t{1} << 15))
    throw std::invalid_argument("BarrettReducer: modulus " + std::to_string(modulus) + " is outside 3 .. 2^15");
  mu = static_cast<uint32_t>((uint64_t{1} << 32) / static_cast<uint64_t>(modulus));
}

}  // namespace ozref::schemes
