// The one way ozref turns JSON into text (reports on standard output, trace manifests). Strings
// that are not valid UTF-8 (a file name is any bytes) cannot throw: each invalid byte is written
// as U+FFFD. Non-finite numbers are written as null (nlohmann's rule), which is why the reports
// map them to null themselves and say so (docs/verbs/*.md).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace ozref {

std::string json_text(const nlohmann::json& j, int indent = -1);

}  // namespace ozref
