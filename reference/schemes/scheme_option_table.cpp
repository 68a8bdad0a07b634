#include "schemes/scheme_option_table.hpp"

#include <algorithm>
#include <sstream>

#include "common/error.hpp"

namespace ozref::schemes {
namespace {

std::vector<std::string> words_of(const char* spaced) {
  std::istringstream in(spaced);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

OptionDeclaration declared(const char* name, const char* field, size_t least, size_t greatest, const char* schemes, const char* help) {
  return {name, field, least, greatest, words_of(schemes), help};
}

// The field an option reads and writes, by its type.
void bind_field(OptionDeclaration& d, std::string api::SchemeOptions::* f) { d.text = f; }
void bind_field(OptionDeclaration& d, size_t api::SchemeOptions::* f) { d.count = f; }
void bind_field(OptionDeclaration& d, std::vector<int64_t> api::SchemeOptions::* f) { d.count_list = f; }

// A manifest's count: its type is checked here, its range by the scheme, which knows its own
// (`--moduli must be 2..20`); the command line and Python check the declared range as they parse.
bool is_count(const nlohmann::json& v) { return v.is_number_integer() && v.get<int64_t>() >= 1; }

}  // namespace

const std::vector<OptionDeclaration>& scheme_option_declarations() {
  static const std::vector<OptionDeclaration> all = [] {
    std::vector<OptionDeclaration> out;
#define OZREF_SCHEME_OPTION_ROW(f, name, type, least, greatest, schemes, help) \
  out.push_back(declared(name, #f, least, greatest, schemes, help)); \
  bind_field(out.back(), &api::SchemeOptions::f);
    OZREF_SCHEME_OPTION_LIST(OZREF_SCHEME_OPTION_ROW)
#undef OZREF_SCHEME_OPTION_ROW
    return out;
  }();
  return all;
}

bool OptionDeclaration::given(const api::SchemeOptions& o) const {
  if (text) return !(o.*text).empty();
  if (count) return o.*count != 0;
  return !(o.*count_list).empty();
}

nlohmann::json OptionDeclaration::value(const api::SchemeOptions& o) const {
  if (text) return o.*text;
  if (count) return o.*count;
  return o.*count_list;
}

void OptionDeclaration::set(api::SchemeOptions& o, const nlohmann::json& v, const std::string& where) const {
  const std::string option = where + ": option \"" + name + "\" must be ";
  if (text) {
    if (!v.is_string()) throw InputError(option + "a string");
    o.*text = v.get<std::string>();
  } else if (count) {
    if (!is_count(v)) throw InputError(option + "a positive integer");
    o.*count = v.get<size_t>();
  } else {
    if (!v.is_array() || !std::all_of(v.begin(), v.end(), is_count)) throw InputError(option + "a list of positive integers");
    o.*count_list = v.get<std::vector<int64_t>>();
  }
}

std::vector<std::string> OptionDeclaration::words(const api::SchemeOptions& o) const {
  if (!given(o)) return {};
  std::string shown;
  if (text) shown = o.*text;
  else if (count) shown = std::to_string(o.*count);
  else
    for (int64_t m : o.*count_list) shown += (shown.empty() ? "" : ",") + std::to_string(m);
  return {std::string("--") + name, shown};
}

std::string OptionDeclaration::help_text() const {
  std::string who;
  for (const std::string& s : schemes) who += (who.empty() ? "" : ", ") + s;
  return who + ": " + help;
}

const OptionDeclaration* find_scheme_option(const std::string& name) {
  const auto& all = scheme_option_declarations();
  const auto it = std::find_if(all.begin(), all.end(), [&](const OptionDeclaration& d) { return name == d.name; });
  return it == all.end() ? nullptr : &*it;
}

std::vector<std::string> options_taken_by(const std::string& scheme) {
  std::vector<std::string> names;
  for (const OptionDeclaration& d : scheme_option_declarations())
    if (std::find(d.schemes.begin(), d.schemes.end(), scheme) != d.schemes.end()) names.push_back(d.name);
  return names;
}

}  // namespace ozref::schemes
