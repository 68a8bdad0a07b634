#include "cli/options.hpp"

#include <sstream>

#include "common/decimal_text.hpp"
#include "common/error.hpp"

namespace ozref::cli {
namespace {

std::string number_text(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

CLI::Validator integer_in(long long lo, unsigned long long hi) {
  const std::string range = "[" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) {
        return decimal_integer_in(text, lo, hi) ? std::string() : quoted_excerpt(text) + " is not an integer in " + range;
      },
      "integer in " + range);
}

CLI::Validator finite_in(double lo, double hi) {
  const std::string range = "[" + number_text(lo) + ", " + number_text(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) {
        return decimal_in(text, lo, hi) ? std::string() : quoted_excerpt(text) + " is not a decimal number in " + range;
      },
      "number in " + range);
}

}  // namespace ozref::cli
