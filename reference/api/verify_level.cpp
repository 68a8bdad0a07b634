#include "api/verify_level.hpp"

namespace ozref {
namespace {
constexpr double kFullVerifyLimit = 33554432.0;  // m * n * k up to 2^25: full verification by default
}  // namespace

schemes::Verify default_verify(size_t m, size_t n, size_t k) {
  return double(m) * double(n) * double(k) <= kFullVerifyLimit ? schemes::Verify::Full : schemes::Verify::Cheap;
}

schemes::Verify verify_level(const std::string& given, size_t m, size_t n, size_t k) {
  return given.empty() ? default_verify(m, n, k) : schemes::parse_verify(given);
}

const char* verify_name(schemes::Verify v) {
  const char* names[] = {"none", "cheap", "full"};
  return names[static_cast<int>(v)];
}

}  // namespace ozref
