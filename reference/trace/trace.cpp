#include "trace/trace.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "io/atomic_file.hpp"

namespace ozref {

uint64_t fnv1a64(const std::vector<uint8_t>& bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ULL;
  }
  return h;
}

TraceWriter::TraceWriter(std::string dir, nlohmann::json header) : dir_(std::move(dir)), manifest_(std::move(header)) {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) throw InputError(dir_ + ": cannot create the trace folder: " + ec.message());
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

void TraceWriter::finish() { write_file_atomically(dir_ + "/manifest.json", manifest_.dump(2) + "\n"); }

nlohmann::json read_manifest(const std::string& dir) {
  const std::string path = dir + "/manifest.json";
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open (is " + dir + " a trace folder?)");
  std::stringstream s;
  s << in.rdbuf();
  try {
    nlohmann::json j = nlohmann::json::parse(s.str());
    if (!j.contains("stages") || !j["stages"].is_array()) throw InputError(path + ": no \"stages\" list");
    return j;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path + ": not valid JSON: " + e.what());
  }
}

std::vector<TraceArray> read_trace(const std::string& dir) {
  std::vector<TraceArray> out;
  const nlohmann::json manifest = read_manifest(dir);
  for (const auto& stage : manifest["stages"])
    for (const auto& array : stage["arrays"]) {
      const std::string file = array["file"].get<std::string>();
      out.push_back({stage["name"].get<std::string>(), array["name"].get<std::string>(), file, read_npy(dir + "/" + file)});
    }
  return out;
}

}  // namespace ozref
