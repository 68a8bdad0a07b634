// The registry of schemes: for each, its name, what it is, whether it has a complex form, and how to
// resolve it for one run (the options each takes are declared with the options themselves,
// include/ozref/scheme_options.hpp). `ozref run`, `ozref verify-trace`, the fuzzers
// and the benchmarks build their schemes here; a trace's manifest records the options so that the
// same scheme can be rebuilt from it.
#pragma once
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "schemes/pipeline/block_frame.hpp"
#include "schemes/pipeline/scheme.hpp"
#include "ozref/scheme_options.hpp"

namespace ozref::schemes {

// A scheme run's options (include/ozref/scheme_options.hpp), and what a run adds to them.
struct SchemeOptions : api::SchemeOptions {
  bool complex = false;
  // Not an option: the block of C a distributed run computes (the ozaki2 schemes take it).
  BlockFrame block;
  // Not an option: the scheme describes a kernel's own arrays (a trace, verify_stages, the schema)
  // rather than a run of ozref's. A K past one GEMM's exactness bound is then the kernel's defect,
  // to be reported at gemm where its sums wrap, not bad input.
  bool kernel_arrays = false;

  // The options given, as a manifest records them.
  nlohmann::json to_json() const;
  // From a manifest's "options" object; InputError naming `where` and the field for unknown keys
  // and wrong types.
  static SchemeOptions from_json(const nlohmann::json& j, const std::string& where);
  // The names of the options given besides arch and complex ("moduli", "mode", ...).
  std::vector<std::string> given() const;
  SchemeOptions() = default;
  explicit SchemeOptions(const api::SchemeOptions& o, bool is_complex = false) : api::SchemeOptions(o), complex(is_complex) {}
};

struct SchemeEntry {
  std::string name;
  std::string summary;
  bool complex = false;            // a complex (--complex) form exists
  std::function<Scheme(const SchemeOptions&, size_t m, size_t n, size_t k)> build;
};

const std::vector<SchemeEntry>& scheme_registry();
// InputError naming the known schemes for an unknown name.
const SchemeEntry& find_scheme(const std::string& name);
// The scheme resolved for an m x k by k x n product (of complex matrices with options.complex);
// InputError for an option the scheme does not take, --complex where it has no complex form, or
// an option value it refuses.
Scheme build_scheme(const std::string& name, const SchemeOptions& options, size_t m, size_t n, size_t k);
// The options with those whose value depends on the inputs (input.a, input.b) resolved on them:
// cublas-fixedpoint@13.1's --mantissa-bits dynamic becomes dynamic:N. InputError where they cannot be.
SchemeOptions with_input_resolved_options(const std::string& name, SchemeOptions options, const Arrays& inputs, size_t m, size_t n, size_t k);

}  // namespace ozref::schemes
