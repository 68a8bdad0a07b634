// The manifest of a scheme's trace (manifest.json beside the arrays, docs/architecture.md): the scheme, its
// options as given and what they resolved to, the shape, where the inputs came from, and (added by
// TraceWriter) every stage's arrays with dtype, shape and FNV-1a hash. From a manifest the same
// scheme can be rebuilt (verify-trace).
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "schemes/pipeline/scheme.hpp"

namespace ozref::schemes {

inline constexpr int kTraceFormatVersion = 1;

nlohmann::json trace_header(const Scheme& s, const std::string& source, uint64_t seed);

// The scheme a manifest describes: its name, options and shape, rebuilt through the registry.
// InputError naming `path` and the field for a manifest that does not say which scheme or shape,
// or whose "resolved" record disagrees with what its options resolve to now.
Scheme scheme_of_manifest(const nlohmann::json& manifest, const std::string& path);

}  // namespace ozref::schemes
