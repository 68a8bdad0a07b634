// A trace (DESIGN.md): a folder of .npy files, one per stage output, plus manifest.json with the
// scheme, its options, the seed, and for every stage its arrays (file, dtype, shape, FNV-1a hash).
// Kernel authors write their own intermediates under the same names (docs/schemes.md) and compare
// them with `ozref diff`.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/npy.hpp"

namespace ozref {

uint64_t fnv1a64(const std::vector<uint8_t>& bytes);

class TraceWriter {
 public:
  // Creates `dir` (it must not hold a manifest already unless `overwrite`).
  TraceWriter(std::string dir, nlohmann::json header);
  void add(const std::string& stage, const std::string& array, const NpyArray& data);
  void finish();  // writes manifest.json (atomically)

 private:
  std::string dir_;
  nlohmann::json manifest_;
};

struct TraceArray {
  std::string stage, name, file;
  NpyArray data;
};

// Reads a trace folder: the manifest and every array it lists (InputError on any problem).
nlohmann::json read_manifest(const std::string& dir);
std::vector<TraceArray> read_trace(const std::string& dir);

}  // namespace ozref
