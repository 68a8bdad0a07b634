// The verification level of a scheme run: given by name, or by default full up to
// m * n * k = 2^25 and cheap beyond (the default of the verbs and of the library alike).
#pragma once
#include <string>

#include "schemes/stage_report.hpp"

namespace ozref {

schemes::Verify default_verify(size_t m, size_t n, size_t k);
// `given` ("none", "cheap", "full"), else the default; InputError for another name.
schemes::Verify verify_level(const std::string& given, size_t m, size_t n, size_t k);
const char* verify_name(schemes::Verify v);

}  // namespace ozref
