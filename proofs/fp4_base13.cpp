// fp4.base13.gapfree: for p = 1..4 limbs, the largest X such that every integer in [-X, X] is
// sum_{i<p} d_i 13^i with digits d_i in S = {0, +-1, +-2, +-3, +-4, +-6, +-8, +-12}; compared with
// the FP4 paper's X_p = (13^p - 1) / 3. Also the digits the greedy conversion (each digit the
// element of S of least magnitude congruent to the remainder mod 13) can produce, and the range
// that conversion covers. Exhaustive over all digit strings.
// fp4.ozaki2.moduli: every m <= 169 whose residue classes all have a two-limb representative, and
// the 19 moduli chosen from them largest first, pairwise coprime (schemes/common/moduli.cpp).
#include <cmath>
#include <set>

#include "schemes/common/base13.hpp"
#include "schemes/common/moduli.hpp"
#include "theorem.hpp"

namespace ozref::proofs {
namespace {

// Whether the greedy conversion writes x in p digits.
bool greedy_fits(int64_t x, int p) {
  for (int i = 0; i < p; ++i) x = (x - schemes::greedy_digit(x)) / 13;
  return x == 0;
}

Result gapfree() {
  Result r;
  r.status = Status::Proved;
  nlohmann::json xs = nlohmann::json::array(), published = nlohmann::json::array(), greedy = nlohmann::json::array();
  std::set<int64_t> values = {0};
  int64_t power = 1;
  for (int p = 1; p <= 4; ++p) {
    std::set<int64_t> next;
    for (int64_t v : values)
      for (int64_t d : schemes::fp4_digits()) next.insert(v + d * power);
    values.swap(next);
    power *= 13;
    int64_t x = 0;
    while (values.count(x + 1) && values.count(-(x + 1))) ++x;
    int64_t g = 0;
    while (greedy_fits(g + 1, p) && greedy_fits(-(g + 1), p)) ++g;
    const int64_t paper = (power - 1) / 3;
    xs.push_back(x);
    published.push_back(paper);
    greedy.push_back(g);
    if (x < paper) {
      r.status = Status::Refuted;
      r.detail = "p = " + std::to_string(p) + ": integers in [-" + std::to_string(x + 1) + ", ...] have no representation, below X_p = " + std::to_string(paper);
    }
  }
  std::set<int64_t> digits;
  for (int64_t x = -1000; x <= 1000; ++x) digits.insert(std::abs(schemes::greedy_digit(x)));
  r.data = {{"X", xs}, {"X_published", published}, {"X_greedy", greedy},
            {"greedy_largest_digit", *digits.rbegin()}};
  return r;
}

Result moduli() {
  Result r;
  const std::vector<int64_t> candidates = schemes::fp4_two_limb_candidates();
  const std::vector<int64_t> chosen = schemes::fp4_moduli(19);
  double log2_product = 0;
  for (int64_t m : chosen) log2_product += std::log2(double(m));
  r.data = {{"candidates", candidates}, {"moduli", chosen}, {"log2_product", log2_product}};
  // The paper's description: 19 moduli, 169, 115, 113, ..., 53, product above 2^123.
  const bool matches = chosen.size() == 19 && chosen[0] == 169 && chosen[1] == 115 && chosen[2] == 113 &&
                       chosen.back() == 53 && log2_product > 123;
  r.status = matches ? Status::Proved : Status::Refuted;
  if (!matches) r.detail = "the derived set does not match the published description";
  return r;
}

}  // namespace

std::vector<Theorem> fp4_theorems() {
  return {
      {"fp4.base13.gapfree", "for p = 1..4, every integer in [-X_p, X_p] has a p-limb base-13 form with digits in S, X_p >= (13^p - 1)/3",
       "exhaustive over all digit strings", false, gapfree},
      {"fp4.ozaki2.moduli", "the coverable moduli m <= 169 yield 19 pairwise coprime moduli 169, 115, 113, ..., 53 with product above 2^123",
       "exhaustive over residues of all two-limb values", false, moduli},
  };
}

}  // namespace ozref::proofs
