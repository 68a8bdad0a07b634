// The dlopen: subject: a C function with a dgemm-like signature in a shared library (docs/fuzz.md):
//   void SYMBOL(int m, int n, int k, const double* A, int lda, const double* B, int ldb, double* C, int ldc);
// called in a forked child for each case, C in shared memory pre-filled with a NaN canary, so
// that a crash or a hang is a finding and not the end of the fuzzer.
#pragma once
#include <memory>
#include <string>

#include "fuzz/subject.hpp"

namespace ozref::fuzz {

// `spec` is LIB:SYMBOL[:rowmajor|colmajor]. InputError for a malformed spec, a library that does
// not load or a symbol it lacks.
std::unique_ptr<Subject> make_dlopen_subject(const std::string& spec, double timeout_seconds);

}  // namespace ozref::fuzz
