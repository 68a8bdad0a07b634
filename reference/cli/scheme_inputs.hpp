// The operands of a scheme run as the command line gives them: two .npy files
// (api/scheme_inputs.hpp) or a generated pair (--m --n --k --dist --seed; a complex run draws the
// real parts first, as a real run would, then the imaginary parts).
#pragma once
#include <string>

#include "api/scheme_inputs.hpp"

namespace ozref::cli {

SchemeInputs scheme_inputs_generated(size_t m, size_t n, size_t k, const std::string& dist, uint64_t seed, bool complex);

}  // namespace ozref::cli
