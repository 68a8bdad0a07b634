// Numeric options with their ranges. CLI11 alone reads "-1" into an unsigned option as 2^64 - 1
// and takes "nan" for a double; an option registered here accepts only a plain decimal integer
// (or a finite number) within its range, and anything else fails to parse with
// "<option>: '<text>' is not an integer in [lo, hi]" (exit code 2).
#pragma once
#include <CLI/CLI.hpp>
#include <concepts>
#include <string>

#include "common/thread_limit.hpp"

namespace ozref::cli {

// Checks the text before CLI11 converts it (CLI11 validates first, then converts).
CLI::Validator integer_in(long long lo, unsigned long long hi);
CLI::Validator finite_in(double lo, double hi);

template <std::integral T>
CLI::Option* add_integer_option(CLI::App* verb, const std::string& name, T& target, T lo, T hi, const std::string& help) {
  return verb->add_option(name, target, help)->check(integer_in(static_cast<long long>(lo), static_cast<unsigned long long>(hi)));
}

inline CLI::Option* add_finite_option(CLI::App* verb, const std::string& name, double& target, double lo, double hi,
                                      const std::string& help) {
  return verb->add_option(name, target, help)->check(finite_in(lo, hi));
}

// --threads N: 0 (the default) for all cores, else 1..kMaxThreads (common/thread_limit.hpp).
inline CLI::Option* add_threads_option(CLI::App* verb, int& target) {
  return add_integer_option(verb, "--threads", target, 0, kMaxThreads, "threads (0, the default: all cores)");
}

}  // namespace ozref::cli
