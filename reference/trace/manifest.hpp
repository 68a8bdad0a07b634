// Reading a trace folder's manifest.json, validated before anything is allocated or opened: every
// field has the type the format says, every array names a plain file inside the folder (no
// directories, no "..", ending in .npy), no stage or array appears twice. Each array is read only
// when asked for, and checked against what the manifest says of it (dtype, shape, FNV-1a hash).
// The folder is opened once (io/folder.hpp) and every file in it is opened relative to it: a
// symbolic link in the folder (the manifest, an array) is refused, never followed.
// Problems are InputErrors naming the file and the field.
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "io/folder.hpp"
#include "io/npy.hpp"

namespace ozref {

struct ManifestArray {
  std::string name, file;
  DType dtype = DType::F8;
  std::vector<size_t> shape;
  std::optional<uint64_t> hash;  // fnv1a64 of the array's bytes (C order, little-endian)
};

struct ManifestStage {
  std::string name;
  std::vector<ManifestArray> arrays;
  const ManifestArray* find(const std::string& array) const;
};

struct Manifest {
  std::string dir, path;  // the trace folder and its manifest.json
  std::shared_ptr<const Folder> folder;  // the trace folder's handle
  nlohmann::json json;    // the whole manifest (scheme, options, shape, ...)
  std::vector<ManifestStage> stages;
  const ManifestStage* find(const std::string& stage) const;
};

Manifest read_manifest(const std::string& dir);
// The array's .npy file, checked against the manifest's dtype, shape and hash.
NpyArray read_trace_array(const Manifest& m, const ManifestStage& stage, const ManifestArray& array);
// The array's file read a few MiB at a time, never whole, with read_trace_array's checks: `visit`
// sees its elements in C order and native byte order (bytes, elements, flat index of the first).
void scan_trace_array(const Manifest& m, const ManifestStage& stage, const ManifestArray& array,
                      const std::function<void(const uint8_t* bytes, size_t elements, size_t first)>& visit);
// InputError unless a file of this dtype and shape holds the array as the manifest lists it.
void require_listed_layout(const Manifest& m, const ManifestStage& stage, const ManifestArray& array, DType dtype,
                           const std::vector<size_t>& shape);
// "DIR/FILE (stage "S", array "A")": how messages about one of the trace's arrays name it.
std::string trace_array_where(const Manifest& m, const ManifestStage& stage, const ManifestArray& array);

}  // namespace ozref
