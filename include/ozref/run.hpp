// A scheme on the CPU emulator, every stage verified against exact arithmetic, the result checked
// against the exact product: what `ozref run` does (docs/verbs/run.md, docs/schemes.md).
#pragma once
#include <string>
#include <vector>

#include "ozref/array.hpp"
#include "ozref/metrics.hpp"
#include "ozref/scheme_options.hpp"

namespace ozref::api {

struct RunOptions {
  SchemeOptions scheme;
  std::string verify = {};  // "none", "cheap", "full"; empty: full up to m*n*k = 2^25, else cheap
  int threads = 0;     // 0: all cores
  std::string dump = {};    // a folder to write the trace of every stage into (docs/verify-trace.md)
};

// A subject's output of a stage (a trace's, a GPU twin's) against the CPU's recomputation.
struct StageComparison {
  bool present = false;            // the subject supplied the stage
  bool compared = false;           // compared bit for bit (the stage is a function of its inputs)
  size_t differing_elements = 0;
  std::string first_difference;    // "c[0, 3, 5]: subject 17, cpu 18"
  std::string reproducer;          // folder written for the first differing GEMM element
  std::string reproducer_error;    // why it could not be written (a read-only trace); the report stands
  bool identical() const { return !compared || differing_elements == 0; }
};

struct StageReport {
  std::string name;                // "residues", "gemm", "crt", ...
  bool checked = false;            // its contract was checked
  bool verified = false;           // checked, and no violation
  size_t violations = 0;
  std::string first_violation;     // where, and the values on both sides
  std::vector<std::string> notes;
  double seconds = 0, verify_seconds = 0;
  StageComparison comparison;      // verify_trace and lockstep
};

struct RunResult {
  std::string scheme;
  size_t m = 0, n = 0, k = 0;
  std::string options_json, resolved_json;  // the options given, and what they resolved to
  std::string verify;                       // the level used
  std::vector<StageReport> stages;
  size_t low_precision_gemms = 0;
  bool exactness_conditions = false;  // the scheme's bound held
  bool exact = false;                 // every stage verified and the conditions held
  bool identical = true;              // with a subject: every compared stage bit-identical
  Metrics accuracy;                   // C against the exact product (rounded to FP64)
  Matrix<double> c, c_imag;           // the result (c_imag: complex runs only)
  double pipeline_seconds = 0, seconds = 0;
  std::string json;                   // the report as the command's --json prints it
  // The command's exit code: 0 when every checked stage verified and every compared stage is
  // identical, else 1.
  int exit_code = 1;
};

// A (m x k) and B (k x n), f8 or f4; both c16 for a complex run (ozaki2-* 3M, ozaki1-* 4M).
// Schemes: ozaki2-int8, ozaki2-fp8, ozaki2-fp4, ozaki1-int8, ozaki1-fp4, int8-on-fp4, rare,
// gemmul8@2.0.14, cublas-fixedpoint@13.1 (schemes() lists them).
// (The default options are an overload, as for lockstep(): ozref/lockstep.hpp says why.)
RunResult run(const std::string& scheme, const ArrayRef& a, const ArrayRef& b, const RunOptions& options);
RunResult run(const std::string& scheme, const ArrayRef& a, const ArrayRef& b);

// The registered schemes, by name.
std::vector<std::string> schemes();

}  // namespace ozref::api
