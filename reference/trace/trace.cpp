#include "trace/trace.hpp"

#include <filesystem>

#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/json_text.hpp"

namespace ozref {

uint64_t fnv1a64(const std::vector<uint8_t>& bytes) { return fnv1a64(kFnv1a64Start, bytes.data(), bytes.size()); }

uint64_t fnv1a64(uint64_t h, const uint8_t* bytes, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    h ^= bytes[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

TraceWriter::TraceWriter(std::string dir, nlohmann::json header) : dir_(std::move(dir)), manifest_(std::move(header)) {
  prepare_output_folder(dir_, "the trace folder");
  manifest_["stages"] = nlohmann::json::array();
}

void TraceWriter::add(const std::string& stage, const std::string& array, const NpyArray& data) {
  const std::string file = stage + "." + array + ".npy";
  write_npy(dir_ + "/" + file, data);
  auto& stages = manifest_["stages"];
  if (stages.empty() || stages.back()["name"] != stage) stages.push_back({{"name", stage}, {"arrays", nlohmann::json::array()}});
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(data.data)));
  stages.back()["arrays"].push_back({{"name", array}, {"file", file}, {"dtype", std::string(dtype_name(data.dtype))},
                                     {"shape", data.shape}, {"fnv1a64", hash}});
}

void TraceWriter::finish() { write_file_atomically(dir_ + "/manifest.json", json_text(manifest_, 2) + "\n"); }

}  // namespace ozref
