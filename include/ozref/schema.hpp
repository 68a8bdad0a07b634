// What a kernel's trace of a scheme holds for one shape, as `ozref schema` prints it
// (docs/verbs/schema.md): every stage in order with its arrays, and the scheme's constants.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ozref/run.hpp"

namespace ozref::api {

struct SchemaArray {
  std::string name = {};         // "a", "c", "row_shift"
  std::string dtype = {};        // "i1", "i4", "f8", ...
  std::vector<size_t> shape = {};  // for this run's m, n, k
  std::string symbolic = {};     // "N x m x k"
  std::string meaning = {}, allowed = {};  // empty where none is recorded / every value of the dtype
};

struct SchemaStage {
  std::string name = {};  // "residues"
  std::string kind = {};  // "function" (compared bit for bit), "choice" (free), "rounding" (held to its contract)
  bool checked = false;            // the stage has a contract of its own
  std::vector<std::string> reads = {};  // "input.a", "truncate.a", ...
  std::vector<SchemaArray> arrays = {};
};

struct Schema {
  std::string scheme = {};
  size_t m = 0, n = 0, k = 0;
  std::vector<SchemaArray> inputs = {};
  std::vector<SchemaStage> stages = {};
  std::string result = {};               // "unscale.c"
  // Ozaki-II: the moduli, P and the CRT weights (decimal), and the largest K one GEMM keeps exact;
  // empty (0) for the other schemes.
  std::vector<int64_t> moduli = {};
  std::string p = {};
  std::vector<std::string> crt_weights = {};
  size_t max_k = 0;
  std::string json = {};                 // what `ozref schema --json` prints
};

// InputError for an unknown scheme or options it refuses. `complex`: the schema of a complex run.
Schema schema(const std::string& scheme, size_t m, size_t n, size_t k, const SchemeOptions& options, bool complex = false);
Schema schema(const std::string& scheme, size_t m, size_t n, size_t k);

}  // namespace ozref::api
