// The schema of a scheme resolved for one shape (ozref schema, ozref::api::schema, ozref.schema):
// its inputs and every stage in order, each array exactly as the stage declares it (Stage::outputs,
// inputs, kind, admitted), so that it is what verify-trace checks a trace against; with the
// scheme's constants (Scheme::constants: moduli, P, CRT weights, the bound on K).
#pragma once
#include <nlohmann/json.hpp>

#include "schemes/pipeline/scheme.hpp"

namespace ozref::schemes {

// {scheme, options, resolved, m, n, k, parts, inputs, stages: [{name, kind, checked, reads,
// arrays: [{name, dtype, shape, symbolic, meaning, allowed}]}], result, constants}.
nlohmann::json scheme_schema(const Scheme& s);

// "function", "choice" or "rounding" (StageKind).
const char* kind_name(StageKind kind);

}  // namespace ozref::schemes
