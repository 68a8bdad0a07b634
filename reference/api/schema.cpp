#include "ozref/schema.hpp"

#include "api/public_types.hpp"
#include "io/json_text.hpp"
#include "schemes/registry.hpp"
#include "schemes/schema.hpp"

namespace ozref::api {
namespace {

std::string text(const nlohmann::json& j) { return j.is_null() ? "" : j.get<std::string>(); }

SchemaArray array_of(const nlohmann::json& j) {
  return {text(j.at("name")), text(j.at("dtype")), j.at("shape").get<std::vector<size_t>>(), text(j.at("symbolic")), text(j.at("meaning")),
          text(j.at("allowed"))};
}

}  // namespace

Schema schema(const std::string& scheme, size_t m, size_t n, size_t k, const SchemeOptions& options, bool complex) {
  const schemes::Scheme s = schemes::build_scheme(scheme, kernel_scheme_options_of(options, complex), m, n, k);
  const nlohmann::json j = schemes::scheme_schema(s);
  Schema out{.scheme = s.name, .m = m, .n = n, .k = k, .result = text(j.at("result")), .json = json_text(j)};
  for (const auto& a : j.at("inputs")) out.inputs.push_back(array_of(a));
  for (const auto& st : j.at("stages")) {
    SchemaStage stage{text(st.at("name")), text(st.at("kind")), st.at("checked").get<bool>(), st.at("reads").get<std::vector<std::string>>(), {}};
    for (const auto& a : st.at("arrays")) stage.arrays.push_back(array_of(a));
    out.stages.push_back(std::move(stage));
  }
  if (const nlohmann::json& c = j.at("constants"); !c.is_null()) {
    for (const auto& modulus : c.at("moduli")) out.moduli.push_back(modulus.at("modulus").get<int64_t>());
    out.p = text(c.at("P"));
    out.crt_weights = c.at("crt_weights").get<std::vector<std::string>>();
    out.max_k = c.at("max_k").get<size_t>();
  }
  return out;
}

Schema schema(const std::string& scheme, size_t m, size_t n, size_t k) { return schema(scheme, m, n, k, SchemeOptions{}); }

}  // namespace ozref::api
