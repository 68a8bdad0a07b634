// The one exception ozref throws for bad input: a malformed file or array, shapes that do not
// agree, an unknown scheme, instruction or option, a value a scheme refuses. Its message names
// the file, array, field or index at fault, as the ozref command prints it after "error: ".
// Other failures (memory exhaustion, file system errors) arrive as the standard exceptions.
#pragma once
#include <exception>
#include <stdexcept>
#include <string>

namespace ozref {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

// The message for any failure a call let through, as the command prints it after "error: ": an
// InputError's own text, and words for memory exhaustion, file system errors, JSON errors and
// the rest, its control characters escaped (common/printable_text.hpp) because it may quote
// names read from a file (the Python module raises its exceptions with it).
std::string failure_message(std::exception_ptr failure);

}  // namespace ozref
