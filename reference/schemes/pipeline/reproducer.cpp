#include "schemes/pipeline/reproducer.hpp"

#include <cstring>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/hex.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"
#include "io/json_text.hpp"
#include "io/npy.hpp"

namespace ozref::schemes {
namespace {

uint32_t bits_at(const Tensor& t, size_t flat) {
  uint32_t v = 0;
  std::memcpy(&v, t.raw() + flat * dtype_size(t.dtype()), sizeof v);
  return v;
}

NpyArray bytes_array(const std::vector<uint8_t>& bytes) {
  NpyArray a;
  a.dtype = DType::U1;
  a.shape = {bytes.size()};
  a.data = bytes;
  return a;
}

uint32_t hex_field(const nlohmann::json& j, const char* key, const std::string& file) {
  if (!j.contains(key) || !j[key].is_string()) throw InputError(file + ": field \"" + key + "\" missing or not a string");
  const std::string s = j[key].get<std::string>();
  if (s.size() != 8 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw InputError(file + ": field \"" + key + "\" is not 8 hex digits");
  return static_cast<uint32_t>(std::stoul(s, nullptr, 16));
}

std::string text_field(const nlohmann::json& j, const char* key, const std::string& file) {
  if (!j.contains(key) || !j[key].is_string()) throw InputError(file + ": field \"" + key + "\" missing or not a string");
  return j[key].get<std::string>();
}

}  // namespace

Reproducer reproducer_of(std::string_view stage, std::string_view array, const std::string& index, const GemmElement& element,
                         const Tensor& subject, const Tensor& cpu, size_t flat) {
  return {.element = element, .stage = std::string(stage), .array = std::string(array), .index = index,
          .subject = bits_at(subject, flat), .cpu = bits_at(cpu, flat)};
}

std::string write_reproducer(const std::string& dir, const Reproducer& r) {
  const std::string folder = dir + "/" + r.stage;
  prepare_output_folder(folder, "the reproducer folder");
  write_npy(folder + "/a.npy", bytes_array(r.element.a));
  write_npy(folder + "/b.npy", bytes_array(r.element.b));
  const nlohmann::json j = {{"op", r.element.op}, {"stage", r.stage},           {"array", r.array},        {"index", r.index},
                            {"c", to_hex32(r.element.c_in)}, {"subject", to_hex32(r.subject)}, {"cpu", to_hex32(r.cpu)}};
  write_file_atomically(folder + "/element.json", json_text(j, 2) + "\n");
  return folder;
}

std::string write_reproducer(const std::string& dir, std::string_view stage, std::string_view array, const std::string& index,
                             const GemmElement& element, const Tensor& subject, const Tensor& cpu, size_t flat) {
  return write_reproducer(dir, reproducer_of(stage, array, index, element, subject, cpu, flat));
}

Reproducer read_reproducer(const std::string& dir) {
  const std::string file = dir + "/element.json";
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_input_file(file, uint64_t{1} << 20));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file + ": not valid JSON: " + e.what());
  }
  if (!j.is_object()) throw InputError(file + ": not a JSON object");
  Reproducer r;
  r.element.op = text_field(j, "op", file);
  r.stage = text_field(j, "stage", file);
  r.array = text_field(j, "array", file);
  r.index = text_field(j, "index", file);
  r.element.c_in = hex_field(j, "c", file);
  r.subject = hex_field(j, "subject", file);
  r.cpu = hex_field(j, "cpu", file);
  for (auto [name, out] : {std::pair{"a", &r.element.a}, std::pair{"b", &r.element.b}}) {
    const std::string path = dir + "/" + name + ".npy";
    const NpyArray a = read_npy(path);
    if (a.dtype != DType::U1 || a.shape.size() != 1) throw InputError(path + ": expected a one-dimensional u1 array");
    *out = a.data;
  }
  if (r.element.a.size() != r.element.b.size()) throw InputError(dir + ": a.npy and b.npy differ in length");
  return r;
}

}  // namespace ozref::schemes
