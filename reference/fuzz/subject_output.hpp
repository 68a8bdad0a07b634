// A subject's C as a file it wrote: read back and checked, any fault a BadOutput outcome.
#pragma once
#include <string>

#include "fuzz/subject.hpp"

namespace ozref::fuzz {

// Ok with C when `path` holds an m x n f8 or f4 array; BadOutput saying what is wrong otherwise.
SubjectOutcome read_subject_c(const std::string& path, size_t m, size_t n);

}  // namespace ozref::fuzz
