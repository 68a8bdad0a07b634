// Bad input is reported as an InputError whose message names the file, field or index at fault;
// the command line turns it into a message on stderr and a non-zero exit.
// InputError itself is part of the public interface (include/ozref/error.hpp).
#pragma once
#include <string>

#include "ozref/error.hpp"

namespace ozref {

// User text as an error message quotes it: in single quotes, cut after `limit` characters (with
// the full length), so that a 10 MB operand does not end up in the message.
inline std::string quoted_excerpt(const std::string& text, size_t limit = 48) {
  if (text.size() <= limit) return "'" + text + "'";
  return "'" + text.substr(0, limit) + "...' (" + std::to_string(text.size()) + " characters)";
}

}  // namespace ozref
