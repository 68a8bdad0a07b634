#include "common/distributions.hpp"

#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>

#include "common/decimal_text.hpp"
#include "common/error.hpp"

namespace ozref {

Distribution parse_distribution(const std::string& text) {
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  Distribution d;
  const std::string value = colon == std::string::npos ? std::string() : text.substr(colon + 1);
  auto number = [&](double hi, bool integer) {  // a plain decimal (common/decimal_text.hpp)
    if (colon == std::string::npos) throw InputError("distribution '" + text + "' needs a value after ':'");
    const std::string range = integer ? "an integer in [0, 2^52]" : "a decimal number in [0, " + std::to_string(int(hi)) + "]";
    const std::optional<double> v = integer && !decimal_integer_in(value, 0, uint64_t{1} << 52) ? std::nullopt : decimal_in(value, 0, hi);
    if (!v) throw InputError("distribution " + quoted_excerpt(text) + ": " + quoted_excerpt(value) + " is not " + range);
    return *v;
  };
  if (name == "randn" && colon == std::string::npos) {
    d.kind = Distribution::Randn;
  } else if (name == "uniform" && colon == std::string::npos) {
    d.kind = Distribution::Uniform;
  } else if (name == "phi") {
    d.kind = Distribution::Phi;
    d.parameter = number(kMaxPhi, false);
  } else if (name == "integers") {
    d.kind = Distribution::Integers;
    d.parameter = number(0x1p52, true);
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
