#include "common/decimal_text.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

namespace ozref {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool decimal_integer_in(const std::string& text, long long lo, unsigned long long hi) {
  const bool negative = !text.empty() && text[0] == '-';
  const size_t first = negative ? 1 : 0;
  if (text.size() == first || text.size() - first > 20 || (negative && lo >= 0)) return false;
  unsigned long long magnitude = 0;
  for (size_t i = first; i < text.size(); ++i) {
    if (!is_digit(text[i])) return false;
    const unsigned digit = unsigned(text[i] - '0');
    if (magnitude > (std::numeric_limits<unsigned long long>::max() - digit) / 10) return false;
    magnitude = magnitude * 10 + digit;
  }
  if (!negative) return magnitude <= hi && (lo <= 0 || magnitude >= static_cast<unsigned long long>(lo));
  // -magnitude >= lo: magnitude <= -lo, computed without overflowing at LLONG_MIN
  return magnitude <= static_cast<unsigned long long>(-(lo + 1)) + 1;
}

std::optional<double> decimal_in(const std::string& text, double lo, double hi) {
  const size_t first = !text.empty() && text[0] == '-' ? 1 : 0;
  if (first && !(lo < 0)) return std::nullopt;
  size_t digits = 0, points = 0;
  for (size_t i = first; i < text.size(); ++i) {
    if (is_digit(text[i])) ++digits;
    else if (text[i] == '.') ++points;
    else return std::nullopt;
  }
  if (digits == 0 || points > 1) return std::nullopt;
  const double v = std::strtod(text.c_str(), nullptr);  // the grammar above is a subset of strtod's
  if (!std::isfinite(v) || v < lo || v > hi) return std::nullopt;
  return v;
}

}  // namespace ozref
