#include "common/printable_text.hpp"

#include <cstdint>
#include <cstdio>

namespace ozref {
namespace {

// The length of the valid UTF-8 sequence at `s[i]` and its code point; 0 when it is not one.
size_t utf8_sequence(std::string_view s, size_t i, uint32_t& code) {
  const auto byte = [&](size_t j) { return static_cast<uint8_t>(s[j]); };
  const uint8_t lead = byte(i);
  const size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xe ? 3 : (lead >> 3) == 0x1e ? 4 : 0;
  if (length == 0 || i + length > s.size()) return 0;
  code = length == 1 ? lead : lead & (0x7f >> length);
  for (size_t j = 1; j < length; ++j) {
    if ((byte(i + j) & 0xc0) != 0x80) return 0;
    code = (code << 6) | (byte(i + j) & 0x3f);
  }
  static constexpr uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter forms are overlong
  if (code < kLeast[length] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0;
  return length;
}

}  // namespace

std::string printable_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char escape[8];
  for (size_t i = 0; i < text.size();) {
    uint32_t code = 0;
    const size_t length = utf8_sequence(text, i, code);
    if (length == 0) {
      std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned>(static_cast<uint8_t>(text[i])));
      out += escape;
      ++i;
      continue;
    }
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) {
      std::snprintf(escape, sizeof escape, code < 0x80 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(code));
      out += escape;
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace ozref
