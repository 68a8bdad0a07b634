#include "schemes/common/residue.hpp"

#include <bit>
#include <cmath>

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

BarrettReducer::BarrettReducer(int64_t modulus)
    : m(modulus), mu(static_cast<uint32_t>((uint64_t{1} << 32) / static_cast<uint64_t>(modulus))) {}

int32_t BarrettReducer::reduce(int32_t x) const {
  const int64_t q = (int64_t{x} * int64_t{mu}) >> 32;  // floor, as the signed __mulhi of a kernel
  int64_t r = int64_t{x} - q * m;  // in [-m, 2m): q may exceed floor(x/m) by one for x < 0
  if (r < 0) r += m;
  if (r >= m) r -= m;
  return static_cast<int32_t>(balance(r, m));
}

}  // namespace ozref::schemes
