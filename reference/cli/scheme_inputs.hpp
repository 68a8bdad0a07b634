// The operands of a scheme run as the command line gives them: two .npy files (f8 or f4; c16 for a
// complex run) or a generated pair (--m --n --k --dist --seed; a complex run draws the real parts
// first, as a real run would, then the imaginary parts).
#pragma once
#include <string>

#include "schemes/pipeline/arrays.hpp"

namespace ozref::cli {

struct SchemeInputs {
  schemes::Arrays arrays;  // input.a, input.b
  size_t m = 0, n = 0, k = 0;
  std::string source;      // "A.npy, B.npy" or "phi:1, seed 1"
};

// InputError for unreadable or malformed files and shapes that do not agree.
SchemeInputs scheme_inputs_from_files(const std::string& a, const std::string& b, bool complex);
SchemeInputs scheme_inputs_generated(size_t m, size_t n, size_t k, const std::string& dist, uint64_t seed, bool complex);

}  // namespace ozref::cli
