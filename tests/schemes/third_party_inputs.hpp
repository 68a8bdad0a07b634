// The five input cases that the outputs of tests/data/third-party were recorded on (docs/third-party.md,
// "The recorded outputs and their inputs"), regenerated as its Python generator does: CPython's
// random.Random(7070) (MT19937 seeded through init_by_array, random(), gauss() with its cached
// second value, randint() by rejection on getrandbits) and the same libm calls, case after case
// from one generator. The matrices come back row-major (m x k and k x n); the generator writes
// them column-major, which changes no value.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/matrix.hpp"

namespace ozref::test {

class PythonRandom {
 public:
  explicit PythonRandom(uint32_t seed) { init_by_array({seed}); }
  double random() {  // random.random(): 53 bits from two outputs
    const uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
  double gauss(double mu, double sigma) {
    double z = cached_;
    if (!has_cached_) {
      const double x2pi = random() * 2 * M_PI;
      const double g2rad = std::sqrt(-2.0 * std::log(1.0 - random()));
      z = std::cos(x2pi) * g2rad;
      cached_ = std::sin(x2pi) * g2rad;
      has_cached_ = true;
    } else {
      has_cached_ = false;
    }
    return mu + z * sigma;
  }
  int64_t randint(int64_t a, int64_t b) {  // randrange(a, b + 1): _randbelow(n) by getrandbits(n.bit_length())
    const uint64_t n = static_cast<uint64_t>(b - a + 1);
    const int bits = 64 - __builtin_clzll(n);
    uint64_t r;
    do r = next() >> (32 - bits);
    while (r >= n);
    return a + static_cast<int64_t>(r);
  }

 private:
  std::array<uint32_t, 624> mt_{};
  size_t index_ = 624;
  double cached_ = 0;
  bool has_cached_ = false;

  void init_genrand(uint32_t s) {
    mt_[0] = s;
    for (uint32_t i = 1; i < 624; ++i) mt_[i] = 1812433253u * (mt_[i - 1] ^ (mt_[i - 1] >> 30)) + i;
    index_ = 624;
  }
  void init_by_array(const std::vector<uint32_t>& key) {
    init_genrand(19650218u);
    uint32_t i = 1, j = 0;
    for (size_t k = std::max<size_t>(624, key.size()); k; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1664525u)) + key[j] + j;
      if (++i >= 624) mt_[0] = mt_[623], i = 1;
      if (++j >= key.size()) j = 0;
    }
    for (size_t k = 623; k; --k) {
      mt_[i] = (mt_[i] ^ ((mt_[i - 1] ^ (mt_[i - 1] >> 30)) * 1566083941u)) - i;
      if (++i >= 624) mt_[0] = mt_[623], i = 1;
    }
    mt_[0] = 0x80000000u;
  }
  uint32_t next() {
    if (index_ >= 624) {
      for (size_t k = 0; k < 624; ++k) {
        const uint32_t y = (mt_[k] & 0x80000000u) | (mt_[(k + 1) % 624] & 0x7fffffffu);
        mt_[k] = mt_[(k + 397) % 624] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
      }
      index_ = 0;
    }
    uint32_t y = mt_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
  }
};

struct ThirdPartyCase {
  std::string name;
  size_t m, n, k;
  Matrix<double> a, b;  // row-major
};

// The five cases of make_inputs.py, in its order (each drawn after the previous one).
inline std::vector<ThirdPartyCase> third_party_cases() {
  PythonRandom rng(7070);
  std::vector<ThirdPartyCase> cases;
  auto add = [&](const std::string& name, size_t m, size_t n, size_t k, const std::function<double(size_t, size_t, bool)>& draw) {
    ThirdPartyCase c{name, m, n, k, Matrix<double>(m, k), Matrix<double>(k, n)};
    for (size_t j = 0; j < k; ++j)  // column-major draws, as the script's list comprehensions
      for (size_t i = 0; i < m; ++i) c.a.data[i * k + j] = draw(i, j, true);
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < k; ++i) c.b.data[i * n + j] = draw(i, j, false);
    cases.push_back(std::move(c));
  };
  add("randn_96x80x3000", 96, 80, 3000, [&](size_t, size_t, bool) { return rng.gauss(0, 1); });
  add("phi2_128x64x4096", 128, 64, 4096, [&](size_t, size_t, bool) {
    const double u = rng.random() - 0.5;  // Python evaluates the left operand first
    return u * std::exp(2 * rng.gauss(0, 1));
  });
  add("int127_64x64x8192", 64, 64, 8192, [&](size_t, size_t, bool) { return static_cast<double>(rng.randint(-127, 127)); });
  add("small_positive_128x128x1024", 128, 128, 1024, [&](size_t, size_t, bool) { return rng.random() * 0x1p-10; });
  add("rowscaled_64x96x2048", 64, 96, 2048, [&](size_t i, size_t j, bool is_a) {
    return is_a ? rng.gauss(0, 1) * std::ldexp(1.0, static_cast<int>(i) - 32) : rng.gauss(0, 1) * std::ldexp(1.0, 20 - static_cast<int>(j / 2));
  });
  return cases;
}

}  // namespace ozref::test
