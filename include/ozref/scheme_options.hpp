// A scheme's options (docs/verbs/run.md). Each is declared once, in OZREF_SCHEME_OPTION_LIST: its
// field here, its command-line flag, its name in a manifest and in Python, its type and range, the
// schemes that take it and its help all come from that one line. The defaults are each scheme's
// own (`ozref schema --scheme S` prints them resolved); an option left empty or 0 is not given.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

// X(field, flag and manifest name, type, least, greatest, the schemes that take it, help).
// Types: Text (a string), Count (an integer in [least, greatest]), CountList (comma-separated
// integers, each in [least, greatest]). The schemes are named as `--scheme` takes them,
// space-separated.
#define OZREF_SCHEME_OPTION_LIST(X)                                                                                                   \
  X(op, "op", Text, 0, 0, "ozaki2-int8 ozaki2-fp8 ozaki2-fp4 rare int8-on-fp4",                                                        \
    "the low-precision instruction, a PTX op string (not given: the architecture's first choice)")                                     \
  X(moduli, "moduli", Count, 2, 64, "ozaki2-int8 ozaki2-fp8 ozaki2-fp4 rare gemmul8@2.0.14",                                            \
    "the number of moduli (then each scheme's own range)")                                                                             \
  X(moduli_list, "moduli-list", CountList, 1, 2147483647, "ozaki2-int8",                                                               \
    "the kernel's own moduli in place of --moduli: 2..32 pairwise-coprime integers in 3..256, comma-separated")                                  \
  X(mode, "mode", Text, 0, 0, "ozaki2-int8 ozaki2-fp8 ozaki2-fp4 gemmul8@2.0.14",                                                       \
    "scaling: accurate (one extra low-precision GEMM), fast (Cauchy-Schwarz), gemmul8-fast (GEMMul8's own formula)")                   \
  X(crt, "crt", Text, 0, 0, "ozaki2-int8 ozaki2-fp8 ozaki2-fp4 rare", "reconstruction: exact, garner or dd")                          \
  X(complex_product, "complex-product", Text, 0, 0, "ozaki2-int8",                                                                     \
    "with --complex: 3m (three INT8 GEMMs per modulus) or gaussian (two, on moduli with a square root of -1)")                          \
  X(kblock, "kblock", Count, 1, 2147483647, "ozaki2-int8 cublas-fixedpoint@13.1",                                                      \
    "ozaki2-int8: each INT32 GEMM's depth, K split into blocks whose sum reduce takes (not given: one GEMM over all of K); "           \
    "cublas-fixedpoint@13.1: the K-block size of the scales (not given: the rule fitted to the H200's, docs/third-party.md)")          \
  X(slices, "slices", Count, 1, 64, "ozaki1-int8 ozaki1-fp4", "the number of slices p (then each scheme's own range)")                 \
  X(slicing, "slicing", Text, 0, 0, "ozaki1-int8", "ozimmu (signed w-bit slices) or cublas (a signed leading slice, unsigned bytes)")  \
  X(accumulate, "accumulate", Text, 0, 0, "ozaki1-int8 ozaki1-fp4",                                                                    \
    "exact, fp64 (as ozIMMU) or fused (int8: one INT32 accumulator per t + u)")                                                        \
  X(mantissa_bits, "mantissa-bits", Text, 0, 0, "cublas-fixedpoint@13.1",                                                             \
    "bits 23..79 (cuBLAS's FIXED control; up to 127 accepted), dynamic:N[:MAX] (a DYNAMIC run's count N under its max mantissa bit "   \
    "count MAX, default 79: above it, native FP64), or dynamic (the DYNAMIC control's count from the inputs)")

namespace ozref::api {

using SchemeOptionText = std::string;
using SchemeOptionCount = size_t;
using SchemeOptionCountList = std::vector<int64_t>;

struct SchemeOptions {
  std::string arch = "ideal";  // the MMA model of the low-precision GEMMs: a built-in name or a spec file (every scheme)
#define OZREF_SCHEME_OPTION_FIELD(field, name, type, least, greatest, schemes, help) SchemeOption##type field = {};
  OZREF_SCHEME_OPTION_LIST(OZREF_SCHEME_OPTION_FIELD)
#undef OZREF_SCHEME_OPTION_FIELD
};

// The options from a JSON object keyed by their manifest names ({"moduli": 14, "mode": "fast"});
// InputError naming `where` and the option for an unknown name, a wrong type or a value out of range.
SchemeOptions scheme_options_from_json(const std::string& json, const std::string& where);
// Every option's declaration as JSON: [{"name", "field", "type", "least", "greatest", "schemes", "help"}]
// (what Python's keywords and the docs read).
std::string scheme_option_declarations_json();

}  // namespace ozref::api
