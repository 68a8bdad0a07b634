#include "cli/options.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "common/error.hpp"

namespace ozref::cli {
namespace {

// Whether `text` is a plain decimal integer ([-]digits) within [lo, hi], without wrapping.
bool integer_text_in(const std::string& text, long long lo, unsigned long long hi) {
  const bool negative = !text.empty() && text[0] == '-';
  const size_t first = negative ? 1 : 0;
  if (text.size() == first || text.size() - first > 20) return false;
  unsigned long long magnitude = 0;
  for (size_t i = first; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    const unsigned digit = unsigned(text[i] - '0');
    if (magnitude > (std::numeric_limits<unsigned long long>::max() - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  if (!negative) return magnitude <= hi && (lo <= 0 || magnitude >= static_cast<unsigned long long>(lo));
  if (magnitude == 0) return lo <= 0;
  // -magnitude >= lo: magnitude <= -lo, computed without overflowing at LLONG_MIN
  return lo < 0 && magnitude <= static_cast<unsigned long long>(-(lo + 1)) + 1;
}

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
        return integer_text_in(text, lo, hi) ? std::string() : quoted_excerpt(text) + " is not an integer in " + range;
      },
      "integer in " + range);
}

CLI::Validator finite_in(double lo, double hi) {
  const std::string range = "[" + number_text(lo) + ", " + number_text(hi) + "]";
  return CLI::Validator(
      [lo, hi, range](std::string& text) {
        char* end = nullptr;
        const double v = text.empty() || std::isspace(static_cast<unsigned char>(text[0])) ? NAN : std::strtod(text.c_str(), &end);
        const bool ok = end && *end == '\0' && std::isfinite(v) && v >= lo && v <= hi;
        return ok ? std::string() : quoted_excerpt(text) + " is not a finite number in " + range;
      },
      "number in " + range);
}

}  // namespace ozref::cli
