// JSON output (io/json_text.hpp): strings that are not UTF-8, such as file names, cannot throw.
#include "io/json_text.hpp"
#include "support.hpp"

using namespace ozref;

TEST_CASE("json text: invalid UTF-8 is written as U+FFFD instead of throwing", "[io]") {
  const nlohmann::json j = {{"where", std::string("trace-\xff\xfe.jsonl:3")}, {"n", 2}};
  CHECK_THROWS_AS(j.dump(), nlohmann::json::type_error);  // the plain dump the verbs used to call
  const std::string text = json_text(j);
  CHECK(text == "{\"n\":2,\"where\":\"trace-\xef\xbf\xbd\xef\xbf\xbd.jsonl:3\"}");
  CHECK(nlohmann::json::parse(text)["n"] == 2);
  CHECK(json_text(nlohmann::json{{"a", 1}}, 2) == "{\n  \"a\": 1\n}");
}
