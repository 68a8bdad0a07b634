// Writing a trace (docs/architecture.md, "File formats"): a folder of .npy files, one per stage array, plus manifest.json with
// the scheme, its options, the seed, and for every stage its arrays (file, dtype, shape, FNV-1a
// hash). Kernel authors write their own intermediates under the same names (docs/verify-trace.md);
// trace/manifest.hpp reads a trace back.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/folder.hpp"
#include "io/npy.hpp"

namespace ozref {

constexpr uint64_t kFnv1a64Start = 0xcbf29ce484222325ULL;
uint64_t fnv1a64(const std::vector<uint8_t>& bytes);
// The hash of bytes that follow those hashed into `h` (fnv1a64 of a file read in pieces).
uint64_t fnv1a64(uint64_t h, const uint8_t* bytes, size_t count);

// InputError naming `dir` unless a trace can be written there: `dir` is absent (its parents are
// made), an empty folder or a trace folder (one that holds a manifest.json), in a writable folder.
// A symbolic link as `dir` is followed: the folder it points to is the one replaced. `option`
// names `dir` in messages ("--dump").
void check_trace_target(const std::string& dir, const std::string& option = "");

// A trace is written whole or not at all: the arrays and manifest.json go to a new folder beside
// `dir` (named as io/temp_file.hpp says), which finish() puts in place of `dir` by renaming: over
// an absent or empty `dir` at once; over an existing trace by exchanging the two (renameat2
// RENAME_EXCHANGE, or where the file system has none, the old one renamed aside first), the old
// one then removed whole (its reproducers/ too). A run that fails, is interrupted or killed before
// that leaves the old trace as it was; the new folder is removed on failure, and after a kill by
// the next dump into the same folder. Two dumps into one folder at once each put a whole trace in
// place; the last to finish is the one that stays.
class TraceWriter {
 public:
  TraceWriter(std::string dir, nlohmann::json header);  // check_trace_target's refusals
  ~TraceWriter();  // removes the new folder unless finish() put it in place
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;
  void add(const std::string& stage, const std::string& array, const NpyArray& data);
  void finish();  // writes manifest.json and puts the trace in place of `dir`

 private:
  void put_in_place();
  std::string dir_;
  std::shared_ptr<const Folder> parent_, staging_;  // `dir`'s folder; the new trace's
  std::string name_;                                 // `dir`'s name in parent_
  nlohmann::json manifest_;
  bool finished_ = false;
};

}  // namespace ozref
