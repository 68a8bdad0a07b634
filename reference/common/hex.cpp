#include "common/hex.hpp"

#include <cstdio>

namespace ozref {

std::string to_hex32(uint32_t bits) {
  char text[9];
  std::snprintf(text, sizeof text, "%08x", bits);
  return text;
}

}  // namespace ozref
