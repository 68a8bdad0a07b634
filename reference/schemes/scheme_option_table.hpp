// The scheme options as data (include/ozref/scheme_options.hpp declares each once): what the
// registry, manifests' JSON, the command line and Python read to take, print and check them.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ozref/scheme_options.hpp"

namespace ozref::schemes {

struct OptionDeclaration {
  const char* name;    // the flag without "--" and the manifest's key: "moduli-list"
  const char* field;   // the C++ field and Python keyword: "moduli_list"
  size_t least, greatest;  // on the command line and in Python: a Count's range, a CountList element's
  std::vector<std::string> schemes;  // the schemes that take it
  const char* help;
  // The field it is: exactly one is set, by the type it is declared with.
  std::string api::SchemeOptions::* text = nullptr;
  size_t api::SchemeOptions::* count = nullptr;
  std::vector<int64_t> api::SchemeOptions::* count_list = nullptr;

  bool given(const api::SchemeOptions& o) const;
  nlohmann::json value(const api::SchemeOptions& o) const;
  // Sets the option from a JSON value; InputError naming `where` and the option for a wrong type
  // (the scheme checks the value).
  void set(api::SchemeOptions& o, const nlohmann::json& value, const std::string& where) const;
  // The command-line words that give it ({"--moduli", "14"}; none when not given).
  std::vector<std::string> words(const api::SchemeOptions& o) const;
  // "ozaki2-int8, cublas-fixedpoint@13.1: " and the help.
  std::string help_text() const;
};

const std::vector<OptionDeclaration>& scheme_option_declarations();
// nullptr for a name no option has.
const OptionDeclaration* find_scheme_option(const std::string& name);
// The names of the options a scheme takes besides arch, in declaration order.
std::vector<std::string> options_taken_by(const std::string& scheme);

}  // namespace ozref::schemes
