// The slicing arithmetic of the Ozaki-I GPU twins (device/stages/ozaki1/slicing.cuh), compiled for
// the host, against the CPU's Slicing (reference/schemes/ozaki1/slicing.hpp): the shift of a row
// and the p slices of a scaled element, for both INT8 slicings and fp4's greedy base-13 digits,
// every p and slice width, on random
// doubles of every binade (subnormals, zeros and both signs included) and at the shift's edges.
// The scale and slices twins call exactly these functions.
#include <bit>
#include <cmath>

#include "common/rng.hpp"
#include "schemes/ozaki1/slicing.hpp"
#include "stages/ozaki1/slicing.cuh"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;
namespace twin = ozref::device::ozaki1;

namespace {

// A double of a random binade in [2^-1074, 2^1023], random sign; sometimes zero or a power of two.
double random_double(Rng& rng) {
  const uint64_t kind = rng.below(16);
  if (kind == 0) return rng.below(2) ? 0.0 : -0.0;
  uint64_t bits = rng.next() & ~(uint64_t{1} << 63);
  if (kind == 1) bits &= ~((uint64_t{1} << 52) - 1);              // a power of two
  if (kind == 2) bits &= (uint64_t{1} << 52) - 1;                 // a subnormal
  if ((bits >> 52) == 0x7FF) bits &= ~(uint64_t{1} << 62);        // finite only
  return std::bit_cast<double>(bits | (rng.below(2) ? uint64_t{1} << 63 : 0));
}

struct Case {
  Ozaki1Variant variant;
  twin::Slicing slicing;
  size_t p, padded_k;
};

std::vector<Case> cases() {
  std::vector<Case> all;
  for (size_t p = 1; p <= 9; ++p)
    for (size_t k : {size_t{32}, size_t{4096}, size_t{1} << 20, size_t{1} << 28}) {
      all.push_back({Ozaki1Variant::Int8, twin::Slicing::Ozimmu, p, k});
      if (k <= 32768) all.push_back({Ozaki1Variant::Int8Cublas, twin::Slicing::Cublas, p, k});
    }
  for (size_t p = 1; p <= 16; ++p) all.push_back({Ozaki1Variant::Fp4, twin::Slicing::Fp4, p, 32});
  return all;
}

}  // namespace

TEST_CASE("twin slicing: shifts and slices of both INT8 slicings and of fp4 are the CPU Slicing's", "[device]") {
  Rng rng(test::seed() + 11);
  test::CaseCount count("twin slicings");
  for (const Case& c : cases()) {
    const Slicing sl(c.variant, c.p, c.padded_k, 1);
    for (int draw = 0; draw < 400 * int(test::level()); ++draw) {
      // A row's largest magnitude, then elements at or below it (the shift keeps them in range).
      const double mx = std::fabs(random_double(rng));
      const int shift = sl.shift(mx);
      REQUIRE(twin::slice_shift(sl.magnitude_bits(), mx) == shift);
      for (double a : {mx, -mx, std::ldexp(mx, -int(rng.below(60))), -std::ldexp(mx, -int(rng.below(60))), mx * rng.uniform()}) {
        int8_t want[16] = {}, got[16] = {};
        sl.slice(a, shift, want, 1);
        twin::slice_element(c.slicing, int(c.p), sl.width(), a, shift, got, 1);
        INFO("a " << a << " shift " << shift << " p " << c.p << " w " << sl.width());
        for (size_t t = 0; t < c.p; ++t) REQUIRE(got[t] == want[t]);
        ++count;
      }
    }
  }
  count.report(80000);
}
