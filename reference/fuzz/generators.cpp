#include "fuzz/generators.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "common/distributions.hpp"
#include "common/error.hpp"
#include "common/rng.hpp"

namespace ozref::fuzz {
namespace {

using Operands = std::pair<Matrix<double>, Matrix<double>>;

struct Generator {
  std::string name;
  // Makes A (m x k) and B (k x n); returns the parameter it drew ("" when it has none).
  std::function<std::string(Rng&, size_t m, size_t n, size_t k, Operands&)> make;
};

template <typename T, size_t N>
T pick(Rng& rng, const T (&choices)[N]) {
  return choices[rng.below(N)];
}

int uniform_int(Rng& rng, int lo, int hi) { return lo + static_cast<int>(rng.below(static_cast<uint64_t>(hi - lo + 1))); }

std::string number(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

Operands from_distribution(Rng& rng, size_t m, size_t n, size_t k, const Distribution& d) {
  Matrix<double> a = random_matrix(m, k, d, rng);
  return {std::move(a), random_matrix(k, n, d, rng)};
}

// Elements randn * 2^e, with e drawn per element by `exponent`.
template <typename Exponent>
void fill_scaled(Rng& rng, Matrix<double>& x, Exponent exponent) {
  for (size_t i = 0; i < x.rows; ++i)
    for (size_t j = 0; j < x.cols; ++j) {
      // Two draws in sequence: as arguments of one call their order would be the compiler's
      // (gcc and clang differ), and a seed would not give the same case everywhere.
      const int e = exponent(i, j);
      x(i, j) = std::ldexp(rng.normal(), e);
    }
}

// A and B whose products a_ip * b_pj are about 2^(sign * total), the exponent split at random
// between the two factors, each element within a few binades of its share.
std::string products_at(Rng& rng, size_t m, size_t n, size_t k, Operands& x, int total_lo, int total_hi, int sign) {
  const int total = uniform_int(rng, total_lo, total_hi);
  const int a_part = uniform_int(rng, 0, total);
  x = {Matrix<double>(m, k), Matrix<double>(k, n)};
  fill_scaled(rng, x.first, [&](size_t, size_t) { return sign * (a_part - uniform_int(rng, 0, 4)); });
  fill_scaled(rng, x.second, [&](size_t, size_t) { return sign * (total - a_part - uniform_int(rng, 0, 4)); });
  return std::to_string(sign * total);
}

std::string cancellation(Rng& rng, size_t m, size_t n, size_t k, Operands& x) {
  x = from_distribution(rng, m, n, k, {Distribution::Randn, 0});
  const size_t half = k / 2;
  for (size_t p = 0; p < half; ++p) {
    for (size_t i = 0; i < m; ++i) x.first(i, half + p) = x.first(i, p);
    for (size_t j = 0; j < n; ++j) x.second(half + p, j) = -x.second(p, j) * (1 + std::ldexp(rng.normal(), -30));
  }
  return "";
}

std::string sparse(Rng& rng, size_t m, size_t n, size_t k, Operands& x) {
  x = from_distribution(rng, m, n, k, {Distribution::Randn, 0});
  for (double& v : x.first.data) v = rng.below(10) == 0 ? v : 0.0;
  for (double& v : x.second.data) v = rng.below(10) == 0 ? v : 0.0;
  for (size_t i = 0; i < m; ++i)
    if (rng.below(4) == 0)
      for (size_t p = 0; p < k; ++p) x.first(i, p) = 0;
  for (size_t j = 0; j < n; ++j)
    if (rng.below(4) == 0)
      for (size_t p = 0; p < k; ++p) x.second(p, j) = 0;
  return "";
}

std::string specials(Rng& rng, size_t m, size_t n, size_t k, Operands& x) {
  x = from_distribution(rng, m, n, k, {Distribution::Randn, 0});
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double kinds[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, -0.0};
  for (uint64_t planted = 1 + rng.below(3); planted > 0; --planted) {
    Matrix<double>& target = rng.below(2) ? x.first : x.second;
    target.data[rng.below(target.data.size())] = pick(rng, kinds);
  }
  return "";
}

const std::vector<Generator>& catalogue() {
  static const std::vector<Generator> generators = {
      {"randn", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) { x = from_distribution(r, m, n, k, {Distribution::Randn, 0}); return std::string(); }},
      {"uniform", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) { x = from_distribution(r, m, n, k, {Distribution::Uniform, 0}); return std::string(); }},
      {"phi", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) {
         const double phi = pick(r, {0.5, 1.0, 2.0, 4.0, 8.0});
         x = from_distribution(r, m, n, k, {Distribution::Phi, phi});
         return number(phi);
       }},
      {"integers", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) {
         const double range = pick(r, {1.0, 127.0, 0x1p26});
         x = from_distribution(r, m, n, k, {Distribution::Integers, range});
         return number(range);
       }},
      {"exponent-span", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) {
         const int span = pick(r, {30, 60, 100, 300});
         x = {Matrix<double>(m, k), Matrix<double>(k, n)};
         fill_scaled(r, x.first, [&](size_t, size_t) { return uniform_int(r, -span, span); });
         fill_scaled(r, x.second, [&](size_t, size_t) { return uniform_int(r, -span, span); });
         return std::to_string(span);
       }},
      {"line-scales", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) {
         const int span = pick(r, {30, 60, 100, 300});
         std::vector<int> row(m), col(n);
         for (int& e : row) e = uniform_int(r, -span, span);
         for (int& e : col) e = uniform_int(r, -span, span);
         x = {Matrix<double>(m, k), Matrix<double>(k, n)};
         fill_scaled(r, x.first, [&](size_t i, size_t) { return row[i]; });
         fill_scaled(r, x.second, [&](size_t, size_t j) { return col[j]; });
         return std::to_string(span);
       }},
      // Products from 2^-1010 down past the smallest subnormal (2^-1074): some are subnormal, some
      // round to zero, and a factor scaled past 2^-1022 is itself subnormal.
      {"subnormal", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) { return products_at(r, m, n, k, x, 1010, 1090, -1); }},
      // Products up to 2^1019 times two normal draws (< 2^6): a sum of them may overflow.
      {"near-overflow", [](Rng& r, size_t m, size_t n, size_t k, Operands& x) { return products_at(r, m, n, k, x, 1012, 1019, 1); }},
      {"cancellation", cancellation},
      {"sparse", sparse},
      {"specials", specials},
  };
  return generators;
}

// InputError "unknown generator 'x' (known: randn, ...)", prefixed with `where`.
const Generator& find_generator(const std::string& name, const std::string& where = "") {
  for (const Generator& g : catalogue())
    if (g.name == name) return g;
  std::string all;
  for (const std::string& g : generator_names()) all += (all.empty() ? "" : ", ") + g;
  throw InputError(where + "unknown generator " + quoted_excerpt(name) + " (known: " + all + ")");
}

// 1, 2, 3, the limit, a power of two or its neighbour, or any size up to the limit.
size_t draw_size(Rng& rng, size_t limit) {
  switch (rng.below(4)) {
    case 0: return std::min<size_t>(limit, 1 + rng.below(3));
    case 1: return limit;
    case 2: {
      size_t power = 1;
      for (uint64_t steps = rng.below(64); steps > 0 && power * 2 <= limit; --steps) power *= 2;
      const size_t near = power + rng.below(3) - 1;
      return std::clamp<size_t>(near, 1, limit);
    }
    default: return 1 + rng.below(limit);
  }
}

}  // namespace

const std::vector<std::string>& generator_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Generator& g : catalogue()) v.push_back(g.name);
    return v;
  }();
  return names;
}

std::vector<std::string> parse_generators(const std::string& list) {
  if (list.empty()) return generator_names();
  std::vector<std::string> chosen;
  std::istringstream words(list);
  for (std::string name; std::getline(words, name, ',');) chosen.push_back(find_generator(name, "--generators: ").name);
  if (chosen.empty()) throw InputError("--generators: no generator named");
  return chosen;
}

namespace {

uint64_t splitmix64(uint64_t x) {
  uint64_t z = x + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

// The run seed mixed first, so that the cases of seeds S and S + 1 do not overlap.
uint64_t case_seed(uint64_t run_seed, uint64_t index) { return splitmix64(splitmix64(run_seed) + index); }

namespace {

void make_operands(const Generator& g, Rng& rng, size_t m, size_t n, size_t k, FuzzCase& c) {
  Operands x;
  const std::string parameter = g.make(rng, m, n, k, x);
  c.a = std::move(x.first), c.b = std::move(x.second);
  c.generator = parameter.empty() ? g.name : g.name + ":" + parameter;
}

}  // namespace

FuzzCase generate_case(uint64_t run_seed, uint64_t index, const std::vector<std::string>& generators, const ShapeLimits& limits) {
  FuzzCase c{.index = index, .seed = case_seed(run_seed, index)};
  Rng rng(c.seed);
  const Generator& g = find_generator(generators[rng.below(generators.size())]);
  const size_t m = draw_size(rng, limits.max_m), n = draw_size(rng, limits.max_n), k = draw_size(rng, limits.max_k);
  make_operands(g, rng, m, n, k, c);
  return c;
}

FuzzCase generate_operands(const std::string& generator, size_t m, size_t n, size_t k, uint64_t seed) {
  const Generator& g = find_generator(generator, "generate: ");
  FuzzCase c{.seed = seed};
  Rng rng(seed);
  make_operands(g, rng, m, n, k, c);
  return c;
}

}  // namespace ozref::fuzz
