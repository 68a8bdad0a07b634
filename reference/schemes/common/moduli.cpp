#include "schemes/common/moduli.hpp"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

namespace ozref::schemes {

const std::vector<int64_t>& int8_moduli() {
  static const std::vector<int64_t> m = {256, 255, 253, 251, 247, 241, 239, 233, 229, 227,
                                         223, 217, 211, 199, 197, 193, 191, 181, 179, 173};
  return m;
}

const std::vector<int64_t>& fp8_square_moduli() {
  static const std::vector<int64_t> m = {1089, 1024, 961, 841, 625, 529};
  return m;
}

const std::vector<int64_t>& fp8_karatsuba_moduli() {
  static const std::vector<int64_t> m = {511, 509, 503, 499, 491, 487, 481, 479, 467, 463, 461, 457, 449, 443};
  return m;
}

const std::vector<int64_t>& fp4_digits() {
  static const std::vector<int64_t> s = {0, 1, -1, 2, -2, 3, -3, 4, -4, 6, -6, 8, -8, 12, -12};
  return s;
}

std::vector<int64_t> fp4_two_limb_candidates() {
  std::set<int64_t> values;
  for (int64_t c0 : fp4_digits())
    for (int64_t c1 : fp4_digits()) values.insert(c0 + 13 * c1);
  std::vector<int64_t> out;
  for (int64_t m = 2; m <= 169; ++m) {
    std::vector<bool> hit(static_cast<size_t>(m), false);
    for (int64_t v : values) hit[static_cast<size_t>(((v % m) + m) % m)] = true;
    if (std::all_of(hit.begin(), hit.end(), [](bool b) { return b; })) out.push_back(m);
  }
  return out;
}

std::vector<int64_t> fp4_moduli(size_t count) {
  std::vector<int64_t> candidates = fp4_two_limb_candidates();
  std::sort(candidates.rbegin(), candidates.rend());
  std::vector<int64_t> chosen;
  for (int64_t m : candidates) {
    if (chosen.size() == count) break;
    if (std::all_of(chosen.begin(), chosen.end(), [m](int64_t c) { return std::gcd(c, m) == 1; })) chosen.push_back(m);
  }
  return chosen;
}

namespace {

bool primes_one_mod_four(int64_t m) {
  for (int64_t p = 2; p * p <= m; ++p)
    for (; m % p == 0; m /= p)
      if (p % 4 != 1) return false;
  return m == 1 || m % 4 == 1;
}

}  // namespace

const std::vector<int64_t>& gaussian_int8_moduli() {
  static const std::vector<int64_t> chosen = [] {
    std::vector<int64_t> out;
    for (int64_t m = 255; m > 1; m -= 2)
      if (primes_one_mod_four(m) && std::all_of(out.begin(), out.end(), [m](int64_t c) { return std::gcd(c, m) == 1; })) out.push_back(m);
    return out;
  }();
  return chosen;
}

int64_t sqrt_minus_one(int64_t m) {
  for (int64_t x = 1; x < m; ++x)
    if ((x * x + 1) % m == 0) return x;
  throw std::invalid_argument("no square root of -1 modulo " + std::to_string(m));
}

}  // namespace ozref::schemes
