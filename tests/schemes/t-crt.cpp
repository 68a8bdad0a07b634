// The 128-bit CRT paths against GMP at the edges of the range: the integers next to +-P/2 (where
// the weighted-sum quotient is nearest to a tie) and the residue tuples whose weighted sum is
// largest, for every prefix of every moduli list with P < 2^126.
#include <catch2/catch.hpp>

#include <cstdio>

#include "schemes/common/crt.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/common/crt_words.hpp"

using namespace ozref;
using namespace ozref::schemes;

namespace {

std::vector<int32_t> residues_of(const mpz_class& x, const std::vector<int64_t>& moduli) {
  std::vector<int32_t> r;
  for (int64_t m : moduli) r.push_back(balanced_residue(int64_t(mpz_fdiv_ui(x.get_mpz_t(), static_cast<unsigned long>(m))), m));
  return r;
}

}  // namespace

TEST_CASE("crt: the 128-bit paths equal GMP next to +-P/2 and on the extreme residue tuples", "[schemes]") {
  std::vector<int64_t> fp8_list = fp8_square_moduli();
  fp8_list.insert(fp8_list.end(), fp8_karatsuba_moduli().begin(), fp8_karatsuba_moduli().end());
  const std::vector<int64_t>& fp8 = fp8_list;
  const std::vector<int64_t> fp4 = fp4_moduli(19);
  size_t cases = 0, lists = 0;
  for (const std::vector<int64_t>* list : {&int8_moduli(), &fp8, &fp4}) {
    for (size_t n = 2; n <= list->size(); ++n) {
      const Crt crt(std::vector<int64_t>(list->begin(), list->begin() + long(n)));
      if (!crt.fits_int128()) break;
      ++lists;
      const mpz_class p = crt.product(), half = p / 2, bottom = -(p - half - 1);
      // (-P/2, P/2] = [bottom, half]: its two ends and their neighbours, and the first values
      // outside (which wrap to the other end).
      for (const mpz_class& x : {mpz_class(half), mpz_class(half - 1), bottom, mpz_class(bottom + 1), mpz_class(0), mpz_class(-1),
                                 mpz_class(half + 1), mpz_class(bottom - 1)}) {
        const std::vector<int32_t> r = residues_of(x, crt.moduli());
        mpz_class want = x;
        if (want > half) want -= p;
        if (2 * want <= -p) want += p;
        REQUIRE(crt.exact(r.data()) == want);
        REQUIRE(mpz_from_int128(crt.exact_int128(r.data())) == want);
        REQUIRE(mpz_from_int128(crt.garner_int128(r.data())) == crt.garner(r.data()));
        ++cases;
      }
      // The same tuples through the block form the crt stage uses (one plane per modulus).
      std::vector<std::vector<int32_t>> tuples;
      for (const mpz_class& x : {mpz_class(half), bottom, mpz_class(half + 1), mpz_class(bottom - 1), mpz_class(-1)}) tuples.push_back(residues_of(x, crt.moduli()));
      // Every residue at the same end of its range: the largest weighted sums.
      for (int side : {-1, 1}) {
        std::vector<int32_t> r;
        for (int64_t m : crt.moduli()) r.push_back(int32_t(side < 0 ? -(m / 2) : (m - 1) / 2));
        REQUIRE(mpz_from_int128(crt.exact_int128(r.data())) == crt.exact(r.data()));
        tuples.push_back(r);
        ++cases;
      }
      // Residues outside the balanced range, at the ends of int16 (a hostile trace's reduced
      // products): the limb sums' largest magnitudes (2^15 times each weight limb).
      for (int32_t a : {-32768, 32767})
        for (int32_t b : {-32768, 32767}) {
          std::vector<int32_t> r;
          for (size_t t = 0; t < crt.moduli().size(); ++t) r.push_back(t % 2 ? a : b);
          tuples.push_back(r);
        }
      std::vector<std::vector<int16_t>> planes(crt.moduli().size());
      std::vector<const int16_t*> pointers;
      for (size_t t = 0; t < planes.size(); ++t) {
        for (const auto& r : tuples) planes[t].push_back(int16_t(r[t]));
        pointers.push_back(planes[t].data());
      }
      std::vector<__int128> block(tuples.size(), -1);  // canary
      crt.exact_int128(pointers.data(), tuples.size(), block.data());
      for (size_t v = 0; v < tuples.size(); ++v) {
        REQUIRE(mpz_from_int128(block[v]) == crt.exact(tuples[v].data()));
        ++cases;
      }
    }
  }
  std::printf("crt edges: %zu cases over %zu moduli prefixes\n", cases, lists);
  CHECK(lists >= 15 + 1);
}
