// A stage array's element as every message names it (docs/verify-trace.md): the array, then each
// axis's index by its letter, "unscale.c[i 3, j 4]".
#pragma once
#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

namespace ozref::schemes {

inline std::string element_name(std::string_view array, std::initializer_list<std::pair<std::string_view, size_t>> axes) {
  std::string s(array);
  s += "[";
  for (const auto& [axis, index] : axes) s += (s.back() == '[' ? "" : ", ") + std::string(axis) + " " + std::to_string(index);
  return s + "]";
}

}  // namespace ozref::schemes
