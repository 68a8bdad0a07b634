#include "trace/trace.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.hpp"
#include "io/atomic_file.hpp"
#include "io/input_file.hpp"
#include "io/json_text.hpp"
#include "io/temp_file.hpp"

namespace ozref {
namespace {

std::string who_of(const std::string& dir, const std::string& option) { return (option.empty() ? "the trace folder" : option) + " " + path_text(dir); }

// Where `dir` lies: its folder and its name there (a link as `dir` resolved to what it points to).
struct TraceTarget {
  std::string parent, name;
};

TraceTarget target_of(const std::string& dir, const std::string& who) {
  if (dir.empty()) throw InputError(who + ": give a folder's name (an empty name is refused, not read as the current folder)");
  namespace fs = std::filesystem;
  fs::path p = fs::path(dir).lexically_normal();
  if (!p.has_filename()) p = p.parent_path();  // "dir/"
  std::error_code ignored, ec;
  if (fs::is_symlink(fs::symlink_status(p, ignored))) p = fs::canonical(p, ec);
  if (ec) throw InputError(who + ": cannot follow the link: " + ec.message());
  if (p.filename().empty() || p.filename() == "." || p.filename() == "..") p = fs::weakly_canonical(fs::absolute(p));
  if (p.filename().empty()) throw InputError(who + ": the root folder cannot hold a trace");
  return {p.parent_path().empty() ? "." : p.parent_path().string(), p.filename().string()};
}

// InputError unless `name` in `parent` is absent, an empty folder or a trace folder.
void require_replaceable(const Folder& parent, const std::string& name, const std::string& who) {
  struct stat st {};
  if (::fstatat(parent.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return;
    throw InputError(who + ": cannot write there: " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    const char* kind = non_regular_kind(st.st_mode);  // nullptr for a regular file
    throw InputError(who + ": is " + (kind ? kind : "a file") + ", not a folder");
  }
  const std::shared_ptr<const Folder> old = parent.subfolder(name, false);
  struct stat manifest {};
  if (::fstatat(old->fd(), "manifest.json", &manifest, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(manifest.st_mode)) return;
  std::error_code ec;
  if (!std::filesystem::is_empty(old->path(), ec) || ec)
    throw InputError(who + ": holds files but no manifest.json; a trace replaces only an empty folder or a trace folder (whole)");
}

std::shared_ptr<const Folder> parent_folder(const TraceTarget& t, const std::string& who) {
  try {
    return Folder::create(t.parent);
  } catch (const InputError& e) {
    throw InputError(who + ": " + e.what());
  }
}

}  // namespace

uint64_t fnv1a64(const std::vector<uint8_t>& bytes) { return fnv1a64(kFnv1a64Start, bytes.data(), bytes.size()); }

uint64_t fnv1a64(uint64_t h, const uint8_t* bytes, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    h ^= bytes[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

void check_trace_target(const std::string& dir, const std::string& option) {
  const std::string who = who_of(dir, option);
  const TraceTarget t = target_of(dir, who);
  require_replaceable(*parent_folder(t, who), t.name, who);
}

TraceWriter::TraceWriter(std::string dir, nlohmann::json header) : dir_(std::move(dir)), manifest_(std::move(header)) {
  const std::string who = who_of(dir_, "");
  const TraceTarget t = target_of(dir_, who);
  parent_ = parent_folder(t, who);
  name_ = t.name;
  require_replaceable(*parent_, name_, who);
  remove_stale_temp_files(*parent_);
  std::string staging;
  for (unsigned attempt = 0; staging.empty(); ++attempt) {
    staging = temp_file_name(attempt, "dump");
    if (::mkdirat(parent_->fd(), staging.c_str(), 0777) == 0) break;
    if (errno != EEXIST || attempt == 63) throw InputError(who + ": cannot create a folder beside it: " + std::strerror(errno));
    staging.clear();
  }
  staging_ = parent_->subfolder(staging, false);
  struct stat old {};
  if (::fstatat(parent_->fd(), name_.c_str(), &old, 0) == 0) ::fchmod(staging_->fd(), old.st_mode & 07777);  // the old trace's permissions
  manifest_["stages"] = nlohmann::json::array();
}

TraceWriter::~TraceWriter() {
  if (finished_ || !staging_) return;
  std::error_code ignored;  // remove_all removes links, never what they point to
  std::filesystem::remove_all(staging_->path(), ignored);
}

void TraceWriter::add(const std::string& stage, const std::string& array, const NpyArray& data) {
  const std::string file = stage + "." + array + ".npy";
  write_npy(staging_, file, data);
  auto& stages = manifest_["stages"];
  if (stages.empty() || stages.back()["name"] != stage) stages.push_back({{"name", stage}, {"arrays", nlohmann::json::array()}});
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(data.data)));
  stages.back()["arrays"].push_back({{"name", array}, {"file", file}, {"dtype", std::string(dtype_name(data.dtype))},
                                     {"shape", data.shape}, {"fnv1a64", hash}});
}

void TraceWriter::finish() {
  write_file_atomically(staging_, "manifest.json", json_text(manifest_, 2) + "\n");
  if (::fsync(staging_->fd()) != 0) throw InputError(staging_->path() + ": cannot flush the folder: " + std::strerror(errno));
  put_in_place();
  finished_ = true;
}

// The new trace in place of the old (see the header); the old one removed after.
void TraceWriter::put_in_place() {
  const std::string who = who_of(dir_, ""), staging = std::filesystem::path(staging_->path()).filename().string();
  const int at = parent_->fd();
  if (::renameat(at, staging.c_str(), at, name_.c_str()) == 0) return;  // absent, or an empty folder
  if (errno != ENOTEMPTY && errno != EEXIST) throw InputError(who + ": cannot put the trace in place: " + std::strerror(errno));
  require_replaceable(*parent_, name_, who);  // still a trace folder (another process may have put one there)
  std::string old = staging;
  if (::renameat2(at, staging.c_str(), at, name_.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS) throw InputError(who + ": cannot put the trace in place: " + std::strerror(errno));
    old = temp_file_name(0, "dump");  // no exchange on this file system: the old trace aside, then the new one in
    if (::renameat(at, name_.c_str(), at, old.c_str()) != 0) throw InputError(who + ": cannot move the old trace aside: " + std::strerror(errno));
    if (::renameat(at, staging.c_str(), at, name_.c_str()) != 0) {
      const std::string why = std::strerror(errno);
      ::renameat(at, old.c_str(), at, name_.c_str());  // the old trace back
      throw InputError(who + ": cannot put the trace in place: " + why);
    }
  }
  std::error_code ignored;
  std::filesystem::remove_all(parent_->path_of(old), ignored);
}

}  // namespace ozref
