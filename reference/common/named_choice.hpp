// The value of an option that takes one of a fixed set of names (--verify, --mode, --crt, ...).
#pragma once
#include <initializer_list>
#include <string>
#include <utility>

#include "common/error.hpp"

namespace ozref {

// The value named `name`, or InputError "unknown <what> '<name>' (known: a, b, c)".
template <typename T>
T named_choice(const std::string& name, const std::string& what, std::initializer_list<std::pair<const char*, T>> choices) {
  std::string known;
  for (const auto& [choice, value] : choices) {
    if (name == choice) return value;
    known += (known.empty() ? "" : ", ") + std::string(choice);
  }
  throw InputError("unknown " + what + " '" + name + "' (known: " + known + ")");
}

}  // namespace ozref
