#include "schemes/gemmul8/log2_model.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/error.hpp"

#ifndef OZREF_GEMMUL8_LG2_DEFAULT
#define OZREF_GEMMUL8_LG2_DEFAULT ""
#endif

namespace ozref::schemes::gemmul8 {
namespace {

// log2 x to about 200 bits, for the rare x whose double log2 is within a few ulps of a float
// rounding boundary (log2 x is irrational for x not a power of two: never on one).
double log2_rounded_exactly(float x) {
  using big = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<200, boost::multiprecision::digit_base_2>>;
  const big t = boost::multiprecision::log(big(x)) / boost::multiprecision::log(big(2));
  return static_cast<double>(static_cast<float>(t));  // float conversion of a 200-bit value: nearest
}

}  // namespace

float log2_nearest(float x) {
  if (std::isnan(x) || x < 0) return NAN;
  if (x == 0) return -INFINITY;
  if (std::isinf(x)) return INFINITY;
  const double t = std::log2(static_cast<double>(x));  // within an ulp of log2 x (glibc)
  const float f = static_cast<float>(t);
  const double below = (static_cast<double>(f) + std::nextafter(f, -INFINITY)) / 2;
  const double above = (static_cast<double>(f) + std::nextafter(f, INFINITY)) / 2;
  const double margin = 8 * (std::nextafter(std::fabs(t), INFINITY) - std::fabs(t));
  if (t != 0 && (std::fabs(t - below) <= margin || std::fabs(t - above) <= margin)) return static_cast<float>(log2_rounded_exactly(x));
  return f;
}

void log2_window(float x, float& low, float& high) {
  const float y = log2_nearest(x);
  if (!std::isfinite(y)) {
    low = high = y;
    return;
  }
  const double ulp = std::nextafter(std::fabs(y), INFINITY) - std::fabs(y);
  const double eps = (x >= 0.5f && x <= 2.0f ? 0x1p-21 : 0x1p-21 + 4 * ulp);
  const double t = std::log2(static_cast<double>(x));
  low = std::nextafter(static_cast<float>(t - eps), -INFINITY);
  high = std::nextafter(static_cast<float>(t + eps), INFINITY);
}

Lg2Recording parse_lg2_recording(const std::string& text, const std::string& name) {
  Lg2Recording r;
  r.loaded = true;
  r.source = name;
  std::istringstream in(text);
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string kind;
    int moduli = 0, exponent = 0;
    std::string bits;
    long long h200 = 0, model = 0;
    fields >> kind;
    const bool fast = kind == "fast";
    if (fast) fields >> moduli >> exponent >> bits >> h200 >> model;
    else if (kind == "accurate") fields >> moduli >> bits >> h200 >> model;
    char* end = nullptr;
    const unsigned long value = bits.empty() ? 0 : std::strtoul(bits.c_str(), &end, 16);
    if ((!fast && kind != "accurate") || fields.fail() || bits.empty() || *end != '\0' || value > 0xFFFFFFFFul || moduli < 2 || moduli > 20)
      throw InputError(name + ":" + std::to_string(number) + ": expected 'fast N e vbits h200 model' or 'accurate N xbits h200 model'");
    const Lg2Floor floors{static_cast<int32_t>(h200), static_cast<int32_t>(model)};
    if (fast) r.fast[{moduli, exponent, static_cast<uint32_t>(value)}] = floors;
    else r.accurate[{moduli, static_cast<uint32_t>(value)}] = floors;
  }
  return r;
}

const Lg2Recording& lg2_recording() {
  static const Lg2Recording recording = [] {
    const char* env = std::getenv("OZREF_GEMMUL8_LG2");
    const std::string path = env && *env ? env : OZREF_GEMMUL8_LG2_DEFAULT;
    std::ifstream file(path);
    if (path.empty() || !file) {
      Lg2Recording none;
      none.source = path.empty() ? "no recording configured" : "no recording at " + path;
      return none;
    }
    std::stringstream text;
    text << file.rdbuf();
    return parse_lg2_recording(text.str(), path);
  }();
  return recording;
}

}  // namespace ozref::schemes::gemmul8
