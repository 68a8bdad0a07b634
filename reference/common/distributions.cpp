#include "common/distributions.hpp"

#include <cmath>
#include <sstream>

#include "common/error.hpp"

namespace ozref {

Distribution parse_distribution(const std::string& text) {
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  Distribution d;
  auto number = [&](void) {
    if (colon == std::string::npos) throw InputError("distribution '" + text + "' needs a value after ':'");
    try {
      size_t used = 0;
      const double v = std::stod(text.substr(colon + 1), &used);
      if (used != text.size() - colon - 1) throw std::invalid_argument("");
      return v;
    } catch (const std::exception&) {
      throw InputError("distribution '" + text + "': '" + text.substr(colon + 1) + "' is not a number");
    }
  };
  if (name == "randn" && colon == std::string::npos) {
    d.kind = Distribution::Randn;
  } else if (name == "uniform" && colon == std::string::npos) {
    d.kind = Distribution::Uniform;
  } else if (name == "phi") {
    d.kind = Distribution::Phi;
    d.parameter = number();
    if (!(d.parameter >= 0 && d.parameter <= kMaxPhi))  // NaN fails both
      throw InputError("distribution '" + text + "': phi must be in [0, " + std::to_string(int(kMaxPhi)) + "]");
  } else if (name == "integers") {
    d.kind = Distribution::Integers;
    d.parameter = number();
    if (d.parameter < 0 || d.parameter > 0x1p52 || d.parameter != std::floor(d.parameter))
      throw InputError("distribution '" + text + "': R must be an integer in [0, 2^52]");
  } else {
    throw InputError("unknown distribution '" + text + "' (known: randn, uniform, phi:X, integers:R)");
  }
  return d;
}

std::string to_string(const Distribution& d) {
  std::ostringstream s;
  switch (d.kind) {
    case Distribution::Randn: return "randn";
    case Distribution::Uniform: return "uniform";
    case Distribution::Phi: s << "phi:" << d.parameter; return s.str();
    case Distribution::Integers: s << "integers:" << d.parameter; return s.str();
  }
  return "";
}

Matrix<double> random_matrix(size_t rows, size_t cols, const Distribution& d, Rng& rng) {
  Matrix<double> m(rows, cols);
  for (auto& x : m.data) {
    switch (d.kind) {
      case Distribution::Randn: x = rng.normal(); break;
      case Distribution::Uniform: x = rng.uniform(); break;
      case Distribution::Phi: x = (rng.uniform() - 0.5) * std::exp(d.parameter * rng.normal()); break;
      case Distribution::Integers: {
        const uint64_t span = static_cast<uint64_t>(d.parameter) * 2 + 1;
        x = static_cast<double>(static_cast<int64_t>(rng.below(span)) - static_cast<int64_t>(d.parameter));
        break;
      }
    }
  }
  return m;
}

}  // namespace ozref
