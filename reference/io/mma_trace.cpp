#include "io/mma_trace.hpp"

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "io/json_text.hpp"
#include "io/line_reader.hpp"

namespace ozref {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The hex string under `key`, or nullptr when an optional key is absent.
const std::string* hex_field(const nlohmann::json& j, const char* key, const std::string& where, bool required) {
  if (!j.contains(key)) {
    if (required) throw InputError(where + ": record has no \"" + key + "\"");
    return nullptr;
  }
  if (!j[key].is_string()) throw InputError(where + ": \"" + key + "\" must be a hex string");
  return j[key].get_ptr<const std::string*>();
}

std::vector<uint8_t> bytes_of(const nlohmann::json& j, const char* key, const std::string& where, bool required) {
  const std::string* hex = hex_field(j, key, where, required);
  return hex ? from_hex(*hex, where + ": \"" + key + "\"") : std::vector<uint8_t>{};
}

uint32_t word_of(const nlohmann::json& j, const char* key, const std::string& where) {
  return word_from_hex(*hex_field(j, key, where, true), where + ": \"" + key + "\"");
}

}  // namespace

std::vector<uint8_t> from_hex(const std::string& s, const std::string& what) {
  if (s.size() % 2) throw InputError(what + " has an odd number of hex digits");
  std::vector<uint8_t> out(s.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    const int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);
    if (hi < 0 || lo < 0)
      throw InputError(what + " is not hex at digit " + std::to_string(2 * i + (hi < 0 ? 1 : 2)) + ": " + quoted_excerpt(s));
    out[i] = static_cast<uint8_t>(hi * 16 + lo);
  }
  return out;
}

uint32_t word_from_hex(const std::string& s, const std::string& what) {
  const std::vector<uint8_t> b = from_hex(s, what);
  if (b.size() != 4) throw InputError(what + " must be 8 hex digits (a 32-bit pattern)");
  return uint32_t{b[0]} << 24 | uint32_t{b[1]} << 16 | uint32_t{b[2]} << 8 | b[3];
}

std::string to_hex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

MmaRecord parse_mma_record(const std::string& line, const std::string& where) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(where + ": not JSON: " + e.what());
  }
  if (!j.is_object()) throw InputError(where + ": a record must be a JSON object");
  MmaRecord r;
  if (!j.contains("op") || !j["op"].is_string()) throw InputError(where + ": record has no string \"op\"");
  r.op = j["op"].get<std::string>();
  r.a = bytes_of(j, "a", where, true);
  r.b = bytes_of(j, "b", where, true);
  r.c = word_of(j, "c", where);
  r.d = word_of(j, "d", where);
  r.scale_a = bytes_of(j, "scale_a", where, false);
  r.scale_b = bytes_of(j, "scale_b", where, false);
  if (j.contains("tag") && j["tag"].is_string()) r.tag = j["tag"].get<std::string>();
  if (j.contains("arch") && j["arch"].is_string()) r.arch = j["arch"].get<std::string>();
  return r;
}

std::string format_mma_record(const MmaRecord& r) {
  nlohmann::json j = {{"op", r.op}, {"a", to_hex(r.a)}, {"b", to_hex(r.b)}, {"c", to_hex32(r.c)}, {"d", to_hex32(r.d)}};
  if (!r.scale_a.empty()) j["scale_a"] = to_hex(r.scale_a);
  if (!r.scale_b.empty()) j["scale_b"] = to_hex(r.scale_b);
  if (!r.tag.empty()) j["tag"] = r.tag;
  if (!r.arch.empty()) j["arch"] = r.arch;
  return json_text(j);
}

void read_mma_trace(const std::string& path, const std::function<void(const MmaRecord&)>& visit) {
  LineReader lines(path);
  std::string line;
  while (lines.next(line)) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    MmaRecord r = parse_mma_record(line, path + ":" + std::to_string(lines.line_number()));
    r.line = lines.line_number();
    visit(r);
  }
}

}  // namespace ozref
