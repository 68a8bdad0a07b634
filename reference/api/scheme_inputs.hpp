// The operands of a scheme run (input.a, input.b) from two .npy files (f8 or f4; c16 for a complex
// run) or from matrices a library caller handed over, with their shapes checked.
#pragma once
#include <string>

#include "api/operands.hpp"
#include "io/npy.hpp"
#include "schemes/pipeline/arrays.hpp"

namespace ozref {

struct SchemeInputs {
  schemes::Arrays arrays;  // input.a, input.b
  size_t m = 0, n = 0, k = 0;
  std::string source;      // "A.npy, B.npy" or "phi:1, seed 1"
};

SchemeInputs real_scheme_inputs(const Operands& ops, const std::string& a_name, const std::string& b_name);
// A complex product's operands (c16); InputError when the shapes do not agree.
SchemeInputs complex_scheme_inputs(const ComplexMatrix& a, const std::string& a_name, const ComplexMatrix& b, const std::string& b_name);

// InputError for unreadable or malformed files and shapes that do not agree.
SchemeInputs scheme_inputs_from_files(const std::string& a_path, const std::string& b_path, bool complex);

}  // namespace ozref
