// MMA trace records (docs/architecture.md): JSON Lines, optionally gzip-compressed, one record per output
// element of one instruction: {"op", "a", "b", "c", "d"} plus optional "scale_a", "scale_b",
// "tag", "arch". Hex strings: a and b one byte per element in K order (two hex digits each; for
// 16-bit elements four digits each, big-endian; packed FP4 as the operand register holds them),
// c and d the 32-bit patterns as 8 big-endian hex digits.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/hex.hpp"  // to_hex32: how c and d are written

namespace ozref {

struct MmaRecord {
  std::string op;
  std::vector<uint8_t> a, b, scale_a, scale_b;
  uint32_t c = 0, d = 0;
  std::string tag, arch;
  size_t line = 0;  // 1-based line in its file
};

// Calls `visit` for each record of the file (plain or .gz, detected by content). Blank lines are
// skipped. A malformed line is an InputError naming file and line.
void read_mma_trace(const std::string& path, const std::function<void(const MmaRecord&)>& visit);

MmaRecord parse_mma_record(const std::string& line, const std::string& where);
std::string format_mma_record(const MmaRecord& r);  // one JSON line, no newline

std::string to_hex(const std::vector<uint8_t>& bytes);
// Hex digits as bytes, and 8 hex digits as a 32-bit pattern; InputError naming `what`.
std::vector<uint8_t> from_hex(const std::string& hex, const std::string& what);
uint32_t word_from_hex(const std::string& hex, const std::string& what);

}  // namespace ozref
