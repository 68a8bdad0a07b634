// Writing a trace (docs/architecture.md, "File formats"): a folder of .npy files, one per stage array, plus manifest.json with
// the scheme, its options, the seed, and for every stage its arrays (file, dtype, shape, FNV-1a
// hash). Kernel authors write their own intermediates under the same names (docs/verify-trace.md);
// trace/manifest.hpp reads a trace back.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/npy.hpp"

namespace ozref {

constexpr uint64_t kFnv1a64Start = 0xcbf29ce484222325ULL;
uint64_t fnv1a64(const std::vector<uint8_t>& bytes);
// The hash of bytes that follow those hashed into `h` (fnv1a64 of a file read in pieces).
uint64_t fnv1a64(uint64_t h, const uint8_t* bytes, size_t count);

class TraceWriter {
 public:
  // Creates `dir` (and its parents) when needed; arrays are written as they are added.
  TraceWriter(std::string dir, nlohmann::json header);
  void add(const std::string& stage, const std::string& array, const NpyArray& data);
  void finish();  // writes manifest.json (atomically)

 private:
  std::string dir_;
  nlohmann::json manifest_;
};

}  // namespace ozref
