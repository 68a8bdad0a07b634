// One factory per architecture file, and the variants of the open questions (variants.cpp);
// registry.cpp collects them.
#pragma once
#include <vector>

#include "mma/instruction.hpp"

namespace ozref::mma {
ArchSpec make_ideal();
ArchSpec make_sm_80();
ArchSpec make_sm_89();
ArchSpec make_sm_90();
ArchSpec make_sm_100();
ArchSpec make_sm_120();
ArchSpec make_cdna3();
std::vector<ArchSpec> make_variants(const std::vector<ArchSpec>& bases);
}  // namespace ozref::mma
