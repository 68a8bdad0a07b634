// Shared test helpers: the seed every test prints, and a case counter that refuses to pass on
// nothing (a property that ran no case is a failure, not a pass).
#pragma once
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace ozref::test {

// The run's seed: OZREF_SEED from the environment, else a fixed default. Printed by every user.
inline uint64_t seed() {
  const char* s = std::getenv("OZREF_SEED");
  return s ? std::strtoull(s, nullptr, 0) : 0x5eed2026ULL;
}

// Multiplies case counts: OZREF_TEST_LEVEL=1 (default, CI), 10 (thorough), ...
inline uint64_t level() {
  const char* s = std::getenv("OZREF_TEST_LEVEL");
  const uint64_t v = s ? std::strtoull(s, nullptr, 10) : 1;
  return v ? v : 1;
}

struct CaseCount {
  std::string what;
  uint64_t count = 0;
  explicit CaseCount(std::string w) : what(std::move(w)) {}
  void operator++() { ++count; }
  void operator+=(uint64_t n) { count += n; }
  // Reports the count and fails when fewer than `minimum` cases ran.
  void report(uint64_t minimum = 1) const {
    WARN(what << ": " << count << " cases (seed " << seed() << ")");
    REQUIRE(count >= minimum);
  }
};

}  // namespace ozref::test
