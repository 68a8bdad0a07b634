// What each array of a scheme's trace holds, in a kernel author's words (ozref schema): the
// arrays' names, dtypes and shapes come from the stages themselves; this says what their elements
// mean, with the index order, for the Ozaki-II family (ozaki2-*, rare, gemmul8@2.0.14).
#pragma once
#include <string>
#include <string_view>

namespace ozref::schemes {

// "" where no description is recorded (the Ozaki-I and cuBLAS schemes: docs/schemes.md).
std::string array_meaning(std::string_view scheme, std::string_view stage, std::string_view array);

}  // namespace ozref::schemes
