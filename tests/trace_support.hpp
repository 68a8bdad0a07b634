// Helpers of the trace tests: a temporary folder, a subject that computes every stage with the CPU
// but changes one stage's outputs (a kernel with one faulty or differently chosen stage, whose later
// stages consume its own outputs), and editing a trace's arrays with their manifest kept valid.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "schemes/pipeline/subject.hpp"
#include "trace/trace.hpp"

namespace ozref::test {

class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : path_(std::filesystem::temp_directory_path() / ("ozref-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string operator/(const std::string& child) const { return (path_ / child).string(); }

 private:
  std::filesystem::path path_;
};

// Every stage computed by the CPU; `change` then edits the outputs of the stage named `stage`.
class ChangingSubject final : public schemes::Subject {
 public:
  ChangingSubject(std::string stage, std::function<void(const schemes::Stage&, schemes::Arrays&)> change,
                  bool follows_rounding_order = false, bool computes_from_inputs = false)
      : stage_(std::move(stage)), change_(std::move(change)), follows_(follows_rounding_order), computes_(computes_from_inputs) {}
  std::string name() const override { return "cpu with " + stage_ + " changed"; }
  bool provides(const schemes::Stage&) const override { return true; }
  bool follows_rounding_order() const override { return follows_; }
  bool computes_from_inputs() const override { return computes_; }
  void compute(const schemes::Stage& s, const schemes::Arrays& in, schemes::Arrays& out) override {
    for (size_t t = 0; t < s.batches(); ++t) s.compute(in, out, t);
    if (s.name() == stage_) change_(s, out);
  }

 private:
  std::string stage_;
  std::function<void(const schemes::Stage&, schemes::Arrays&)> change_;
  bool follows_, computes_;
};

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// Replaces stage.array of the trace in `dir` by `data`, with its manifest entry (dtype, shape,
// hash) updated, as a kernel that wrote that value would have written it.
inline void replace_trace_array(const std::string& dir, const std::string& stage, const std::string& array, const NpyArray& data) {
  nlohmann::json m = read_json(dir + "/manifest.json");
  for (auto& s : m["stages"])
    for (auto& a : s["arrays"])
      if (s["name"] == stage && a["name"] == array) {
        write_npy(dir + "/" + a["file"].get<std::string>(), data);
        char hash[17];
        std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(data.data)));
        a["dtype"] = std::string(dtype_name(data.dtype));
        a["shape"] = data.shape;
        a["fnv1a64"] = hash;
      }
  write_file_atomically(dir + "/manifest.json", m.dump(2));
}

// Edits the manifest of the trace in `dir`.
inline void edit_manifest(const std::string& dir, const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json m = read_json(dir + "/manifest.json");
  edit(m);
  write_file_atomically(dir + "/manifest.json", m.dump(2));
}

}  // namespace ozref::test
