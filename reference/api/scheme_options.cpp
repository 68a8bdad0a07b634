// The public face of the option declarations (include/ozref/scheme_options.hpp): Python builds its
// keywords and their checks from these.
#include "ozref/scheme_options.hpp"

#include "common/error.hpp"
#include "schemes/registry.hpp"
#include "schemes/scheme_option_table.hpp"

namespace ozref::api {

SchemeOptions scheme_options_from_json(const std::string& json, const std::string& where) {
  const nlohmann::json j = nlohmann::json::parse(json, nullptr, false);
  if (j.is_discarded()) throw InputError(where + ": not JSON");
  const schemes::SchemeOptions o = schemes::SchemeOptions::from_json(j, where);
  if (o.complex) throw InputError(where + ": \"complex\" is not an option here (complex inputs make a complex run)");
  return o;
}

std::string scheme_option_declarations_json() {
  nlohmann::json all = nlohmann::json::array();
  for (const schemes::OptionDeclaration& d : schemes::scheme_option_declarations())
    all.push_back({{"name", d.name}, {"field", d.field}, {"type", d.text ? "text" : d.count ? "count" : "count-list"}, {"least", d.least},
                   {"greatest", d.greatest}, {"schemes", d.schemes}, {"help", d.help}});
  return all.dump();
}

}  // namespace ozref::api
