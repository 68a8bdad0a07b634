#include "common/openmp_environment.hpp"

#include <cctype>
#include <cstdlib>
#include <optional>

#include "common/decimal_text.hpp"
#include "common/error.hpp"
#include "common/thread_limit.hpp"

namespace ozref {
namespace {

std::string trimmed(const std::string& text) {
  const size_t first = text.find_first_not_of(" \t"), last = text.find_last_not_of(" \t");
  return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

bool thread_count(const std::string& text) { return decimal_integer_in(trimmed(text), 1, kMaxThreads); }

bool thread_counts(const std::string& list) {
  for (size_t at = 0;;) {
    const size_t comma = list.find(',', at);
    if (!thread_count(list.substr(at, comma - at))) return false;
    if (comma == std::string::npos) return true;
    at = comma + 1;
  }
}

// OMP_STACKSIZE's grammar (OpenMP 5.2, 6.6): digits, then B, K, M or G (either case; K when none).
std::optional<double> stack_bytes(const std::string& value) {
  std::string text = trimmed(value);
  double unit = 1024;
  if (!text.empty() && std::isalpha(static_cast<unsigned char>(text.back()))) {
    const char suffix = char(std::toupper(static_cast<unsigned char>(text.back())));
    unit = suffix == 'B' ? 1 : suffix == 'K' ? 0x1p10 : suffix == 'M' ? 0x1p20 : suffix == 'G' ? 0x1p30 : 0;
    text = trimmed(text.substr(0, text.size() - 1));
  }
  if (unit == 0 || !decimal_integer_in(text, 1, UINT64_MAX)) return std::nullopt;
  return std::strtod(text.c_str(), nullptr) * unit;
}

}  // namespace

std::string openmp_environment_problem(uint64_t memory, int threads) {
  const std::string limit = std::to_string(kMaxThreads);
  if (const char* v = std::getenv("OMP_NUM_THREADS"); v && !thread_counts(v))
    return "OMP_NUM_THREADS=" + quoted_excerpt(v) + " is not a list of thread counts 1.." + limit + " (for example 8, or 8,2)";
  if (const char* v = std::getenv("OMP_THREAD_LIMIT"); v && !thread_count(v))
    return "OMP_THREAD_LIMIT=" + quoted_excerpt(v) + " is not a thread count 1.." + limit;
  for (const char* name : {"OMP_STACKSIZE", "GOMP_STACKSIZE"}) {
    const char* v = std::getenv(name);
    if (!v) continue;
    const std::optional<double> bytes = stack_bytes(v);
    if (!bytes) return std::string(name) + "=" + quoted_excerpt(v) + " is not a stack size (digits, then B, K, M or G)";
    if (*bytes * threads > double(memory))
      return std::string(name) + "=" + quoted_excerpt(v) + ": " + std::to_string(threads) +
             " threads' stacks of that size would not fit in the memory budget (" + std::to_string(memory) + " bytes)";
  }
  return "";
}

}  // namespace ozref
