// Bad input is reported as an InputError whose message names the file, field or index at fault;
// the command line turns it into a message on stderr and a non-zero exit.
#pragma once
#include <stdexcept>
#include <string>

namespace ozref {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace ozref
