// In-process subjects: a scheme of the registry on the CPU emulator, or the exact product rounded
// once to FP64 (right by construction: the control that no property may fail on).
#pragma once
#include <memory>

#include "fuzz/subjects.hpp"

namespace ozref::fuzz {

// InputError for an unknown scheme or options it refuses (checked on a 1x1x1 product).
std::unique_ptr<Subject> make_scheme_subject(const SubjectSpec& spec);
std::unique_ptr<Subject> make_exact_subject(int threads);

}  // namespace ozref::fuzz
