#include "schemes/common/base13.hpp"

#include <cstdlib>
#include <stdexcept>
#include <string>

#include "schemes/common/moduli.hpp"

namespace ozref::schemes {
namespace {
int64_t mod(int64_t x, int64_t m) { return ((x % m) + m) % m; }
}  // namespace

bool in_digit_set(int64_t d) {
  for (int64_t s : fp4_digits())
    if (s == d) return true;
  return false;
}

int64_t base13_range(int p) {
  if (p < 1 || p > 16) throw std::logic_error("base13_range: p = " + std::to_string(p) + " outside 1..16");
  int64_t power = 1;
  for (int i = 0; i < p; ++i) power *= 13;
  return (power - 1) / 3;
}

TwoLimbTable::TwoLimbTable(int64_t modulus) : m_(modulus), table_(static_cast<size_t>(modulus)) {
  std::vector<bool> found(static_cast<size_t>(modulus), false);
  std::vector<int64_t> best_value(static_cast<size_t>(modulus), 0);
  auto better = [](int64_t v, int c0, int c1, int64_t bv, std::pair<int8_t, int8_t> b) {
    if (std::llabs(v) != std::llabs(bv)) return std::llabs(v) < std::llabs(bv);
    if (std::abs(c1) != std::abs(b.second)) return std::abs(c1) < std::abs(b.second);
    return c0 > b.first;
  };
  for (int64_t c1 : fp4_digits())
    for (int64_t c0 : fp4_digits()) {
      const int64_t v = c0 + 13 * c1;
      const size_t r = static_cast<size_t>(mod(v, modulus));
      if (!found[r] || better(v, int(c0), int(c1), best_value[r], table_[r])) {
        found[r] = true;
        best_value[r] = v;
        table_[r] = {static_cast<int8_t>(c0), static_cast<int8_t>(c1)};
      }
    }
  for (size_t r = 0; r < found.size(); ++r)
    if (!found[r])
      throw std::logic_error("TwoLimbTable: class " + std::to_string(r) + " mod " + std::to_string(modulus) + " has no two-limb form");
}

std::pair<int8_t, int8_t> TwoLimbTable::limbs(int64_t r) const { return table_[static_cast<size_t>(mod(r, m_))]; }

}  // namespace ozref::schemes
