#include "schemes/manifest.hpp"

#include "common/error.hpp"
#include "schemes/registry.hpp"

namespace ozref::schemes {
namespace {

// 0 included: a product with an empty dimension is a product every scheme computes (and dumps).
size_t dimension(const nlohmann::json& j, const char* key, const std::string& path) {
  if (!j.contains(key) || !j.at(key).is_number_unsigned() || j.at(key).get<size_t>() > (size_t{1} << 31))
    throw InputError(path + ": field \"" + key + "\" must be an integer in 0..2^31");
  return j.at(key).get<size_t>();
}

}  // namespace

nlohmann::json trace_header(const Scheme& s, const std::string& source, uint64_t seed) {
  return {{"ozref_trace", kTraceFormatVersion}, {"scheme", s.name}, {"options", s.options}, {"resolved", s.resolved},
          {"m", s.m}, {"n", s.n}, {"k", s.k}, {"source", source}, {"seed", seed}};
}

Scheme scheme_of_manifest(const nlohmann::json& j, const std::string& path) {
  if (!j.contains("scheme") || !j.at("scheme").is_string()) throw InputError(path + ": field \"scheme\" missing or not a string");
  const nlohmann::json options = j.contains("options") ? j.at("options") : nlohmann::json::object();
  SchemeOptions given = SchemeOptions::from_json(options, path);
  given.kernel_arrays = true;
  const size_t m = dimension(j, "m", path), n = dimension(j, "n", path), k = dimension(j, "k", path);
  Scheme s;
  try {
    s = build_scheme(j.at("scheme").get<std::string>(), given, m, n, k);
  } catch (const InputError& e) {  // the scheme refuses its options or shape: say which file and fields
    throw InputError(path + ": the fields \"scheme\", \"options\", \"m\", \"n\", \"k\": " + e.what());
  }
  if (j.contains("resolved")) {
    const nlohmann::json& claimed = j.at("resolved");
    if (!claimed.is_object()) throw InputError(path + ": field \"resolved\" must be an object");
    for (const auto& [key, value] : claimed.items())
      if (!s.resolved.contains(key) || s.resolved.at(key) != value)
        throw InputError(path + ": \"resolved\"." + key + " is " + value.dump() + " but the options resolve to " +
                         (s.resolved.contains(key) ? s.resolved.at(key).dump() : std::string("nothing of that name")));
  }
  return s;
}

}  // namespace ozref::schemes
