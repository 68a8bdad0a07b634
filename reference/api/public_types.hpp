// Between the public interface's types (include/ozref/) and the library's own: a caller's array
// as the NpyArray the command would have read, and the library's reports as the public structs.
#pragma once
#include <nlohmann/json.hpp>

#include "api/scheme_inputs.hpp"
#include "exact/metrics.hpp"
#include "io/npy.hpp"
#include "ozref/metrics.hpp"
#include "ozref/run.hpp"
#include "schemes/pipeline/scheme.hpp"
#include "schemes/registry.hpp"

namespace ozref::api {

// InputError unless 0 <= threads <= kMaxThreads (the command's range for --threads).
void require_threads(int threads);
// A copy of the caller's array; InputError for a null pointer with elements, or a shape whose
// element count overflows.
NpyArray npy_of(const ArrayRef& array);
// A and B of a product, refused as the command refuses them (A before B is looked at).
Operands operands_of(const ArrayRef& a, const ArrayRef& b);
// The operands of a scheme run: c16 arrays make a complex run.
SchemeInputs scheme_inputs_of(const ArrayRef& a, const ArrayRef& b);
bool is_complex(const ArrayRef& a, const ArrayRef& b);
schemes::SchemeOptions scheme_options_of(const SchemeOptions& options, bool complex);
// The same, for a scheme that describes a kernel's arrays (schemes::SchemeOptions::kernel_arrays).
schemes::SchemeOptions kernel_scheme_options_of(const SchemeOptions& options, bool complex);

Metrics public_metrics(const AccuracyMetrics& m);
// The run's report with its JSON (what the verb prints); the exit code as the verb returns it. The
// result matrices are moved out of `r`.
RunResult public_run_result(const schemes::Scheme& s, schemes::SchemeResult& r, const char* verify, const nlohmann::json& json);

}  // namespace ozref::api
