// rare (fp64-emu's Ozaki-II): its residue extraction and reductions against independent residues,
// its default modulus count against the published plan, exactness on integer inputs, and
// accuracy against the exact product.
#include <cmath>

#include "common/distributions.hpp"
#include "common/rng.hpp"
#include "schemes/common/moduli.hpp"
#include "schemes/common/residue.hpp"
#include "schemes/ozaki2/rare.hpp"
#include "schemes/ozaki2/scheme.hpp"
#include "support.hpp"

using namespace ozref;
using namespace ozref::schemes;

TEST_CASE("rare: the three-limb residue extraction equals the balanced residue", "[schemes]") {
  Rng rng(test::seed() + 40);
  test::CaseCount cases("limb residues");
  for (int bits_eff : {16, 40, 53})
    for (int64_t m : int8_moduli()) {
      const int64_t top = int64_t{1} << bits_eff;
      std::vector<int64_t> values = {0, 1, -1, top, -top, top - 1, -top + 1};
      for (int i = 0; i < 2000; ++i) values.push_back(int64_t(rng.next() % uint64_t(2 * top + 1)) - top);
      for (int64_t t : values) {
        INFO("t = " << t << " mod " << m << ", bits_eff " << bits_eff);
        REQUIRE(rare::limb_residue(double(t), bits_eff, m) == balanced_residue(t, m));
        ++cases;
      }
    }
  cases.report(3 * 20 * 2007);
}

TEST_CASE("rare: the biased Barrett reduction of GEMM outputs equals the balanced residue", "[schemes]") {
  Rng rng(test::seed() + 41);
  test::CaseCount cases("biased reductions");
  for (size_t k : {size_t(1), size_t(1024), size_t(131071)})
    for (int64_t m : int8_moduli()) {
      const int64_t half = m / 2, bound = int64_t(k) * half * half;
      const uint32_t bias = rare::reduction_bias(m, k);
      std::vector<int64_t> ys = {0, 1, -1, bound, -bound, std::min<int64_t>(bound, INT32_MAX)};
      for (int i = 0; i < 2000; ++i) ys.push_back(int64_t(rng.next() % uint64_t(2 * bound + 1)) - bound);
      for (int64_t y : ys) {
        if (y > INT32_MAX || y < INT32_MIN) continue;
        INFO("y = " << y << " mod " << m << ", K " << k);
        REQUIRE(rare::biased_barrett(int32_t(y), m, bias) == balanced_residue(y, m));
        ++cases;
      }
    }
  cases.report(3 * 20 * 2000);
}

TEST_CASE("rare: the default modulus count follows fp64-emu's plan (14 + 2 up to K = 8192, 15 + 2 beyond)", "[schemes]") {
  // Published: fp64-emu README (14 + 2 up to K = 8192, 15 + 2 beyond). Its plan_config
  // (2 * 49 + ceil(log2 K) + 1 - 3.4 bits) gives 13 below K = 33, where 13 moduli's 101.56 bits
  // already suffice: the README's 14 holds from K = 33.
  for (size_t k : {1, 32}) CHECK(rare::default_moduli(k) == 13);
  for (size_t k : {33, 64, 1024, 8192}) CHECK(rare::default_moduli(k) == 14);
  for (size_t k : {8193, 16384, 131071}) CHECK(rare::default_moduli(k) == 15);
  Rng rng(test::seed() + 42);
  const Distribution d{Distribution::Phi, 1.0};
  Ozaki2Options o;
  o.variant = Ozaki2Variant::Rare;
  const SchemeResult r = run_ozaki2(random_matrix(2, 100, d, rng), random_matrix(100, 2, d, rng), o, nullptr);
  CHECK(r.low_precision_gemms == 16);
}

TEST_CASE("rare: integer inputs are reproduced bit for bit on every INT8 model", "[schemes]") {
  Rng rng(test::seed() + 43);
  test::CaseCount cases("rare integer runs");
  for (const std::string arch : {"ideal", "sm_90", "sm_80", "sm_100"}) {
    const Distribution d{Distribution::Integers, (1 << 20) - 1};
    const Matrix<double> a = random_matrix(6, 90, d, rng), b = random_matrix(90, 5, d, rng);
    Ozaki2Options o;
    o.variant = Ozaki2Variant::Rare;
    o.arch = arch;
    const SchemeResult r = run_ozaki2(a, b, o, nullptr);
    INFO(arch);
    for (const auto& s : r.stages) {
      INFO(s.name << ": " << s.first_violation);
      REQUIRE(s.holds());
    }
    REQUIRE(r.exact);
    REQUIRE(r.accuracy.bit_identical == r.accuracy.elements);
    ++cases;
  }
  cases.report(4);
}

TEST_CASE("rare: at least 52 correct bits (max norm) on randn and phi data, as fp64-emu reports", "[schemes]") {
  // fp64-emu README: 52.6 to 54.1 correct bits by default (randn, wide, ill-conditioned data).
  Rng rng(test::seed() + 44);
  for (const Distribution d : {Distribution{Distribution::Randn, 0}, Distribution{Distribution::Phi, 1.0}}) {
    const Matrix<double> a = random_matrix(16, 512, d, rng), b = random_matrix(512, 16, d, rng);
    Ozaki2Options o;
    o.variant = Ozaki2Variant::Rare;
    const SchemeResult r = run_ozaki2(a, b, o, nullptr);
    INFO(to_string(d) << ": " << r.accuracy.correct_bits_maxnorm << " bits");
    REQUIRE(r.exact);
    REQUIRE(r.accuracy.correct_bits_maxnorm >= 52.0);
  }
}

TEST_CASE("rare regression (fuzz_run): a sum of squares that overflows FP64 drops fp64-emu's gain and leaves the CRT range, reported", "[schemes]") {
  // Found by fuzz_run (fuzz/corpus/run/regression-rare-sum-of-squares-overflow). fp64-emu sets
  // lg = +inf for a line whose sum of squares is not finite and then leaves out the global gain
  // (g = 0, bits_eff = 53): with K = 3 its plan gives 13 moduli (101.6 bits), far below the
  // 2 * 53 + log2 3 bits the products need. The round stage must report the CRT bound and the
  // run must not claim exactness; the result is indeed wrong.
  Matrix<double> a(2, 3, 0.0), b(3, 2, 0.0);
  for (size_t k = 0; k < 3; ++k) {
    a(0, k) = 0.75 - 0.25 * double(k), a(1, k) = 1.0 + double(k);
    b(k, 0) = 1e200 * (1.0 + double(k));  // (1e200)^2 overflows
    b(k, 1) = 0.5;
  }
  Ozaki2Options o;
  o.variant = Ozaki2Variant::Rare;
  const SchemeResult r = run_ozaki2(a, b, o, nullptr);
  const StageReport& round = r.stages[1];
  REQUIRE(round.name == "round");
  // Every line is scaled to [2^52, 2^53) (bits_eff = 53), so each of the four sums is at least
  // 2^52 * 2^53 = 2^105, past P/2 = 2^100.6: the bound fails at every element, each counted.
  REQUIRE(round.violations == 4);
  REQUIRE(round.first_violation.find("CRT bound") != std::string::npos);
  REQUIRE_FALSE(r.exactness_conditions);
  REQUIRE_FALSE(r.exact);
  REQUIRE(r.accuracy.bit_identical < r.accuracy.elements);
  for (size_t s = 2; s < r.stages.size(); ++s) {
    INFO(r.stages[s].name);
    REQUIRE(r.stages[s].verified());  // every other contract still holds: only the range is lost
  }
}
