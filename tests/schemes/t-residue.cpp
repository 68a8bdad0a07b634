// The residues stage's kernel (balanced_residues, double arithmetic below 2^62) against the
// integer remainder of GMP, on the values where its splitting and rounding could go wrong.
#include <catch2/catch.hpp>

#include <gmpxx.h>

#include <cmath>
#include <cstdio>

#include "common/rng.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;

namespace {

int32_t gmp_balanced(double x, int64_t m) {
  const mpz_class v(x);  // exact: x is an integer
  mpz_class r;
  mpz_fdiv_r_ui(r.get_mpz_t(), v.get_mpz_t(), static_cast<unsigned long>(m));
  const int64_t u = r.get_si();
  return static_cast<int32_t>(u >= (m + 1) / 2 ? u - m : u);
}

}  // namespace

TEST_CASE("residues: the vectorised kernel equals GMP's remainder, in range and beyond 2^62", "[schemes]") {
  Rng rng(test::seed());
  std::vector<double> x;
  for (double base : {0x1p31, 0x1p32, 0x1p52, 0x1p53, 0x1p61, 0x1p62, 0x1p70})
    for (double d : {-2.0, -1.0, 0.0, 1.0, 2.0}) {
      const double v = base + d * (base >= 0x1p53 ? std::ldexp(1.0, std::ilogb(base) - 52) : 1.0);
      x.push_back(v), x.push_back(-v);
    }
  x.push_back(0x1p62 - 0x1p9), x.push_back(-(0x1p62 - 0x1p9));  // the largest doubles below 2^62
  for (int i = 0; i < 4000; ++i) {  // random integers of every size up to 2^62
    const int bits = int(rng.next() % 62);
    const double v = std::trunc(std::ldexp(double(rng.next() >> 11), bits - 53));
    x.push_back(rng.next() & 1 ? -v : v);
  }
  std::vector<int64_t> moduli = int8_moduli();
  moduli.insert(moduli.end(), fp8_square_moduli().begin(), fp8_square_moduli().end());
  moduli.insert(moduli.end(), fp8_karatsuba_moduli().begin(), fp8_karatsuba_moduli().end());
  const std::vector<int64_t> fp4 = fp4_moduli(19);
  moduli.insert(moduli.end(), fp4.begin(), fp4.end());
  size_t cases = 0;
  // Every value below 2^62 (the fast path), and all of them (a value beyond makes the call fall
  // back); all moduli in one call, out[t * count + v].
  std::vector<double> small;
  for (double v : x)
    if (std::fabs(v) < 0x1p62) small.push_back(v);
  for (const std::vector<double>* in : {&small, &x}) {
    std::vector<int16_t> out(moduli.size() * in->size(), int16_t(0x7BAD));  // canary
    balanced_residues(in->data(), in->size(), moduli, out.data(), in->size());
    for (size_t t = 0; t < moduli.size(); ++t)
      for (size_t v = 0; v < in->size(); ++v) {
        INFO("x = " << (*in)[v] << " mod " << moduli[t]);
        REQUIRE(out[t * in->size() + v] == gmp_balanced((*in)[v], moduli[t]));
        ++cases;
      }
    // The int8 outputs (the int8 moduli), strided as the residues stage writes them: one line
    // of `count` values per modulus, `stride` apart, the gaps left as they were.
    const size_t count = in->size(), stride = count + 3;
    std::vector<int8_t> narrow(int8_moduli().size() * stride, int8_t(0x5A));  // canary
    balanced_residues(in->data(), count, int8_moduli(), narrow.data(), stride);
    for (size_t t = 0; t < int8_moduli().size(); ++t) {
      for (size_t v = 0; v < count; ++v) {
        INFO("x = " << (*in)[v] << " mod " << int8_moduli()[t] << " (int8)");
        REQUIRE(narrow[t * stride + v] == gmp_balanced((*in)[v], int8_moduli()[t]));
        ++cases;
      }
      for (size_t v = count; v < stride; ++v) REQUIRE(narrow[t * stride + v] == int8_t(0x5A));
    }
  }
  std::printf("residues kernel: %zu cases, %zu moduli, seed %llu\n", cases, moduli.size(), (unsigned long long)test::seed());
}
