// Property-based testing of a GEMM against the exact product, with shrinking: what `ozref fuzz`
// does (docs/fuzz.md), for a subject named as the command names it or for a function.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ozref/array.hpp"
#include "ozref/run.hpp"

namespace ozref::api {

// A GEMM under test: C (m x n) for A (m x k) and B (k x n), all row-major FP64. An exception it
// throws is a `no-crash` finding with the exception's message; a C of another shape is one too.
using GemmFunction = std::function<Matrix<double>(const Matrix<double>& a, const Matrix<double>& b)>;

struct FuzzOptions {
  SchemeOptions scheme = {};            // a named scheme subject's options
  std::optional<double> at_least = {};  // accuracy's floor in bits
  std::string metric = "maxnorm";       // or "elementwise"
  std::string properties = {};          // comma-separated; empty: the default (docs/fuzz.md)
  std::string generators = {};          // comma-separated; empty: all
  double seconds = 60;
  uint64_t cases = 0;                   // 0: no limit but the time
  uint64_t first_case = 0;              // the index of the first generated case
  std::optional<uint64_t> seed = {};    // none: from the clock (the result says which)
  size_t max_m = 16, max_n = 16, max_k = 64;
  double timeout = 10;                  // exec: and dlopen: subjects
  double shrink_seconds = 30;
  std::string out = {};                 // the reproducer folder of a finding; empty: none
  std::string replay = {};              // a case folder, or a folder of them, checked first
  int threads = 1;
};

struct FuzzResult {
  bool failed = false;
  uint64_t cases = 0, refused = 0, seed = 0;
  std::string json;  // a finding's report (report.json's), or the summary (cases, refused, seed)
};

// Operands from the catalogue of docs/fuzz.md, for property-testing libraries that draw the shape
// and the seed themselves (Hypothesis: ozref.strategies). `generator` names what was drawn
// ("exponent-span:60").
struct GeneratedOperands {
  Matrix<double> a, b;  // m x k, k x n
  std::string generator;
};
// The catalogue's generator names, in its order.
std::vector<std::string> generator_names();
// InputError for an unknown generator, a dimension of 0, or operands past 2^26 elements each.
GeneratedOperands generate(const std::string& generator, size_t m, size_t n, size_t k, uint64_t seed);

// `subject`: a scheme, "exact", "exec:CMD" or "dlopen:LIB:SYMBOL[:rowmajor|colmajor]". InputError
// as `ozref fuzz` gives it. The progress lines go to standard error.
FuzzResult fuzz(const std::string& subject, const FuzzOptions& options);
FuzzResult fuzz(const GemmFunction& subject, const FuzzOptions& options);

}  // namespace ozref::api
