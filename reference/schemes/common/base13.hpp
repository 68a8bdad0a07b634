// Base-13 limbs with digits in S = {0, +-1, +-2, +-3, +-4, +-6, +-8, +-12} (twice the E2M1 values),
// the integer representation of the FP4 schemes.
//   greedy conversion: each digit is the element of S of least magnitude congruent to the
//   remainder mod 13 (at most 8 in magnitude). It writes every integer in [-X_p, X_p],
//   X_p = (13^p - 1) / 3, in p digits: `ozref prove` checks p = 1..4 exhaustively
//   (fp4.base13.gapfree), and for p + 1 limbs |x| <= 13 X_p + 4 leaves (|x| + 8) / 13 < X_p + 1.
//   two-limb residues: for a modulus m, a pair (c0, c1) in S^2 with c0 + 13 c1 = r (mod m) for every
//   residue class r (the OzII-FP4 moduli are exactly the m <= 169 where one exists for every class).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "schemes/common/greedy_digits.hpp"

namespace ozref::schemes {

bool in_digit_set(int64_t d);
// X_p = (13^p - 1) / 3 for p = 1..16.
int64_t base13_range(int p);

class TwoLimbTable {
 public:
  // std::logic_error when some residue class mod m has no two-limb representative.
  explicit TwoLimbTable(int64_t modulus);
  int64_t modulus() const { return m_; }
  // The limbs of a residue class (any representative r): among all pairs, the one whose value
  // c0 + 13 c1 is closest to zero, then the smaller |c1|, then the larger c0.
  std::pair<int8_t, int8_t> limbs(int64_t r) const;

 private:
  int64_t m_;
  std::vector<std::pair<int8_t, int8_t>> table_;  // by r mod m in [0, m)
};

}  // namespace ozref::schemes
