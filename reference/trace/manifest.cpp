#include "trace/manifest.hpp"

#include <set>

#include "common/error.hpp"
#include "io/input_file.hpp"
#include "io/npy_block.hpp"
#include "trace/trace.hpp"

namespace ozref {
namespace {

constexpr uint64_t kMaxManifestBytes = uint64_t{16} << 20;

const nlohmann::json& member(const nlohmann::json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw InputError(where + ": missing field \"" + key + "\"");
  return j.at(key);
}

std::string text_member(const nlohmann::json& j, const char* key, const std::string& where) {
  const nlohmann::json& v = member(j, key, where);
  if (!v.is_string()) throw InputError(where + ": field \"" + key + "\" must be a string");
  return v.get<std::string>();
}

DType dtype_named(const std::string& name, const std::string& where) {
  for (DType t : {DType::F8, DType::F4, DType::I1, DType::U1, DType::I2, DType::U2, DType::I4, DType::U4, DType::I8, DType::U8, DType::C16})
    if (dtype_name(t) == name) return t;
  throw InputError(where + ": unknown dtype \"" + name + "\"");
}

// A plain file name inside the folder.
std::string file_member(const nlohmann::json& j, const std::string& where) {
  const std::string file = text_member(j, "file", where);
  if (file.empty() || file.size() > 200 || file.find('/') != std::string::npos || file.find('\\') != std::string::npos ||
      file.find('\0') != std::string::npos || file == "." || file == ".." || !file.ends_with(".npy"))
    throw InputError(where + ": field \"file\" must name a .npy file inside the trace folder, got \"" + file + "\"");
  return file;
}

ManifestArray parse_array(const nlohmann::json& j, const std::string& where) {
  ManifestArray a;
  a.name = text_member(j, "name", where);
  const std::string at = where + " array \"" + a.name + "\"";
  a.file = file_member(j, at);
  a.dtype = dtype_named(text_member(j, "dtype", at), at);
  const nlohmann::json& shape = member(j, "shape", at);
  if (!shape.is_array() || shape.size() > 8) throw InputError(at + ": field \"shape\" must be a list of at most 8 integers");
  for (const auto& e : shape) {
    if (!e.is_number_unsigned()) throw InputError(at + ": field \"shape\" must hold non-negative integers");
    a.shape.push_back(e.get<size_t>());
  }
  if (j.contains("fnv1a64")) {
    const std::string h = text_member(j, "fnv1a64", at);
    if (h.size() != 16 || h.find_first_not_of("0123456789abcdef") != std::string::npos)
      throw InputError(at + ": field \"fnv1a64\" must be 16 lower-case hex digits");
    a.hash = std::stoull(h, nullptr, 16);
  }
  return a;
}

InputError hash_mismatch(const Manifest& m, const ManifestStage& stage, const ManifestArray& a) {
  return InputError(trace_array_where(m, stage, a) + ": its FNV-1a hash differs from the manifest's");
}

}  // namespace

const ManifestArray* ManifestStage::find(const std::string& array) const {
  for (const auto& a : arrays)
    if (a.name == array) return &a;
  return nullptr;
}

const ManifestStage* Manifest::find(const std::string& stage) const {
  for (const auto& s : stages)
    if (s.name == stage) return &s;
  return nullptr;
}

Manifest read_manifest(const std::string& dir) {
  Manifest m;
  m.folder = Folder::open(dir, "the trace folder");
  m.dir = dir;
  m.path = dir + "/manifest.json";
  try {
    InputFile file(*m.folder, "manifest.json");
    m.json = nlohmann::json::parse(read_input_file(file, kMaxManifestBytes));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(m.path + ": not valid JSON: " + e.what());
  }
  const nlohmann::json& stages = member(m.json, "stages", m.path);
  if (!stages.is_array()) throw InputError(m.path + ": field \"stages\" must be a list");
  std::set<std::string> names, files;
  for (const auto& s : stages) {
    ManifestStage stage;
    stage.name = text_member(s, "name", m.path + ": a stage");
    const std::string where = m.path + ": stage \"" + stage.name + "\"";
    if (!names.insert(stage.name).second) throw InputError(where + " appears twice");
    const nlohmann::json& arrays = member(s, "arrays", where);
    if (!arrays.is_array()) throw InputError(where + ": field \"arrays\" must be a list");
    for (const auto& a : arrays) {
      ManifestArray array = parse_array(a, where);
      if (stage.find(array.name)) throw InputError(where + ": array \"" + array.name + "\" appears twice");
      if (!files.insert(array.file).second) throw InputError(where + ": file \"" + array.file + "\" is listed twice");
      stage.arrays.push_back(std::move(array));
    }
    m.stages.push_back(std::move(stage));
  }
  return m;
}

std::string trace_array_where(const Manifest& m, const ManifestStage& stage, const ManifestArray& a) {
  return m.dir + "/" + a.file + " (stage \"" + stage.name + "\", array \"" + a.name + "\")";
}

void require_listed_layout(const Manifest& m, const ManifestStage& stage, const ManifestArray& a, DType dtype, const std::vector<size_t>& shape) {
  const std::string where = trace_array_where(m, stage, a);
  if (dtype != a.dtype)
    throw InputError(where + ": dtype " + std::string(dtype_name(dtype)) + ", the manifest says " + std::string(dtype_name(a.dtype)));
  if (shape != a.shape)
    throw InputError(where + ": shape " + nlohmann::json(shape).dump() + ", the manifest says " + nlohmann::json(a.shape).dump());
}

NpyArray read_trace_array(const Manifest& m, const ManifestStage& stage, const ManifestArray& a) {
  InputFile file(*m.folder, a.file);
  NpyArray data = read_npy(file);
  require_listed_layout(m, stage, a, data.dtype, data.shape);
  if (a.hash && fnv1a64(data.data) != *a.hash) throw hash_mismatch(m, stage, a);
  return data;
}

void scan_trace_array(const Manifest& m, const ManifestStage& stage, const ManifestArray& a,
                      const std::function<void(const uint8_t*, size_t, size_t)>& visit) {
  NpyBlockFile file(*m.folder, a.file);
  require_listed_layout(m, stage, a, file.header().dtype, file.header().shape);
  uint64_t hash = kFnv1a64Start;
  file.for_each_chunk([&](const uint8_t* bytes, size_t elements, size_t first) {
    hash = fnv1a64(hash, bytes, elements * dtype_size(a.dtype));
    visit(bytes, elements, first);
  });
  if (a.hash && hash != *a.hash) throw hash_mismatch(m, stage, a);
}

}  // namespace ozref
