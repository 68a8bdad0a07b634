// A library caller's function as a subject (api::fuzz, the Python module's callables), run in
// process: an exception it throws, or a C of the wrong shape, is a finding.
#pragma once
#include <memory>

#include "fuzz/subject.hpp"
#include "ozref/fuzz.hpp"

namespace ozref::fuzz {

std::unique_ptr<Subject> make_function_subject(api::GemmFunction function);

}  // namespace ozref::fuzz
