// The scheme options as declared once (include/ozref/scheme_options.hpp): every scheme takes
// exactly the options declared for it and refuses the rest by name, and a manifest's JSON gives
// back every option it was written from.
#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "schemes/registry.hpp"
#include "schemes/scheme_option_table.hpp"

using namespace ozref;
using namespace ozref::schemes;

namespace {

// The option set to a value of its type (one the schemes may refuse as a value, not as an option).
SchemeOptions with_only(const OptionDeclaration& d) {
  SchemeOptions o;
  d.set(o, d.text ? nlohmann::json("x") : d.count ? nlohmann::json(d.least) : nlohmann::json::array({d.least, d.least + 2}), "test");
  return o;
}

std::string refusal(const std::string& scheme, const SchemeOptions& o) {
  try {
    build_scheme(scheme, o, 4, 4, 32);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("option declarations: each scheme takes the options declared for it and refuses every other by name", "[schemes]") {
  size_t cases = 0;
  for (const OptionDeclaration& d : scheme_option_declarations()) {
    for (const std::string& s : d.schemes) CHECK_NOTHROW(find_scheme(s));  // a declaration names only real schemes
    CHECK(find_scheme_option(d.name) == &d);
    for (const SchemeEntry& e : scheme_registry()) {
      INFO(e.name << " --" << d.name);
      const bool takes = std::find(d.schemes.begin(), d.schemes.end(), e.name) != d.schemes.end();
      const std::string why = refusal(e.name, with_only(d));
      if (takes) CHECK(why.find("takes no --") == std::string::npos);
      else CHECK(why == e.name + " takes no --" + d.name);
      ++cases;
    }
  }
  CHECK(find_scheme_option("nosuch") == nullptr);
  CHECK(cases == scheme_option_declarations().size() * scheme_registry().size());
  WARN(cases << " scheme and option pairs");
}

TEST_CASE("option declarations: a manifest's options give back every option, and refuse wrong types by name", "[schemes]") {
  SchemeOptions all;
  all.arch = "sm_90", all.complex = true;
  for (const OptionDeclaration& d : scheme_option_declarations()) d.set(all, with_only(d).to_json().at(d.name), "test");
  const nlohmann::json j = all.to_json();
  CHECK(j.size() == scheme_option_declarations().size() + 2);  // arch and complex besides them
  const SchemeOptions back = SchemeOptions::from_json(j, "m.json");
  CHECK(back.to_json() == j);
  CHECK(back.given().size() == scheme_option_declarations().size());
  CHECK(SchemeOptions{}.given().empty());

  CHECK_THROWS_WITH(SchemeOptions::from_json({{"moduli", "14"}}, "m.json"), "m.json: option \"moduli\" must be a positive integer");
  CHECK_THROWS_WITH(SchemeOptions::from_json({{"moduli", 0}}, "m.json"), "m.json: option \"moduli\" must be a positive integer");
  CHECK_THROWS_WITH(SchemeOptions::from_json({{"mode", 3}}, "m.json"), "m.json: option \"mode\" must be a string");
  CHECK_THROWS_WITH(SchemeOptions::from_json({{"moduli-list", {256, -1}}}, "m.json"),
                    "m.json: option \"moduli-list\" must be a list of positive integers");
  CHECK_THROWS_WITH(SchemeOptions::from_json({{"moduli_list", {256}}}, "m.json"), "m.json: unknown option \"moduli_list\"");
  CHECK_THROWS_WITH(SchemeOptions::from_json({{"complex", 1}}, "m.json"), "m.json: option \"complex\" must be true or false");
}
