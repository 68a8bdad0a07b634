#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.hpp"
#include "io/folder.hpp"
#include "io/input_file.hpp"
#include "io/temp_file.hpp"
#include "io/temp_file_cleanup.hpp"

namespace ozref {
namespace {

std::string named(const std::string& path, const std::string& option) {
  return (option.empty() ? "" : option + " ") + path_text(path);
}

std::string folder_of(const std::string& path) {
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

std::string name_of(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// The folder of an output path, opened; refused when missing or not a folder.
std::shared_ptr<const Folder> output_folder(const std::string& path, const std::string& option) {
  const std::string who = named(path, option);
  if (path.empty()) throw InputError("empty output file name" + (option.empty() ? "" : " for " + option));
  if (name_of(path).empty()) throw InputError(who + ": names a folder, not a file");
  const std::string folder = folder_of(path);
  struct stat fs {};
  if (::stat(folder.c_str(), &fs) != 0) throw InputError(who + ": its folder " + folder + " does not exist");
  if (!S_ISDIR(fs.st_mode)) throw InputError(who + ": " + folder + " is not a folder");
  return Folder::open(folder);
}

// The status of `name` in `folder` when it exists (and may be replaced); nothing when it is
// absent. Refuses every other target (see the header).
std::optional<struct stat> replaceable_target(const Folder& folder, const std::string& name, const std::string& who) {
  struct stat st {};
  const bool exists = ::fstatat(folder.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
  if (!exists && errno != ENOENT) throw InputError(who + ": cannot write there: " + std::strerror(errno));
  if (exists) {
    if (const char* kind = non_regular_kind(st.st_mode))
      throw InputError(who + ": is " + kind + "; ozref writes only to a new path or over a regular file, and leaves this one as it is");
    if (::faccessat(folder.fd(), name.c_str(), W_OK, AT_SYMLINK_NOFOLLOW) != 0) throw InputError(who + ": the existing file is not writable");
  }
  if (::faccessat(folder.fd(), ".", W_OK | X_OK, 0) != 0) throw InputError(who + ": its folder " + folder.path() + " is not writable");
  if (!exists) return std::nullopt;
  return st;
}

// Creates a registered temporary file in `folder` (io/temp_file.hpp names it); its descriptor, name and path.
int create_temp(const Folder& folder, const std::string& who, std::string& name, std::string& path) {
  for (unsigned attempt = 0; attempt < 64; ++attempt) {
    name = temp_file_name(attempt, ".tmp");
    path = folder.path_of(name);
    const int fd = create_registered_temp_file(folder.fd(), name, path);
    if (fd >= 0) return fd;
    if (errno != EEXIST) break;
  }
  throw InputError(who + ": cannot create a temporary file beside it: " + std::strerror(errno));
}

void write_all(int fd, std::string_view bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) throw InputError(path + ": write failed: " + std::strerror(errno));
    done += static_cast<size_t>(w);
  }
}

}  // namespace

void check_output_file(const std::string& path, const std::string& option, const std::vector<std::string>& inputs) {
  const std::string who = named(path, option);
  const std::optional<struct stat> target = replaceable_target(*output_folder(path, option), name_of(path), who);
  if (!target) return;
  for (const std::string& input : inputs) {
    struct stat in {};
    if (!input.empty() && ::stat(input.c_str(), &in) == 0 && in.st_dev == target->st_dev && in.st_ino == target->st_ino)
      throw InputError(who + ": is the input " + input + " (the same file); ozref does not write over its inputs");
  }
}

AtomicFile::AtomicFile(const std::string& path) : AtomicFile(output_folder(path, ""), name_of(path)) {}

AtomicFile::AtomicFile(std::shared_ptr<const Folder> folder, const std::string& name)
    : folder_(std::move(folder)), name_(name), path_(folder_->path_of(name)) {
  const std::optional<struct stat> target = replaceable_target(*folder_, name_, path_);
  remove_stale_temp_files(*folder_);
  fd_ = create_temp(*folder_, path_, temp_name_, temp_);
  try {
    if (target) {
      // Owner and group can only be kept by root (or a member of the group): otherwise the file
      // becomes ours, as with any editor that saves by renaming.
      [[maybe_unused]] const int kept_owner = ::fchown(fd_, target->st_uid, target->st_gid);
      if (::fchmod(fd_, target->st_mode & 07777) != 0) throw InputError(path_ + ": cannot keep its mode: " + std::strerror(errno));
    }
  } catch (...) {
    abandon();
    throw;
  }
}

AtomicFile::~AtomicFile() {
  if (!committed_) abandon();
}

void AtomicFile::abandon() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  ::unlinkat(folder_->fd(), temp_name_.c_str(), 0);
  unregister_temp_file(temp_);
}

void AtomicFile::write(std::string_view bytes) { write_all(fd_, bytes, path_); }

void AtomicFile::reserve(uint64_t bytes) {
  const int code = ::posix_fallocate(fd_, 0, static_cast<off_t>(bytes));  // an error number, not -1 and errno
  if (code != 0) throw InputError(path_ + ": cannot allocate " + std::to_string(bytes) + " bytes for the file: " + std::strerror(code));
}

void AtomicFile::commit() {
  const bool synced = ::fsync(fd_) == 0;
  const bool closed = ::close(std::exchange(fd_, -1)) == 0;
  if (!synced || !closed) throw InputError(path_ + ": write failed: " + std::strerror(errno));
  if (::renameat(folder_->fd(), temp_name_.c_str(), folder_->fd(), name_.c_str()) != 0)
    throw InputError(path_ + ": cannot move the finished file into place: " + std::strerror(errno));
  committed_ = true;
  unregister_temp_file(temp_);
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

void write_file_atomically(std::shared_ptr<const Folder> folder, const std::string& name, std::string_view bytes) {
  AtomicFile file(std::move(folder), name);
  file.write(bytes);
  file.commit();
}

void prepare_output_folder(const std::string& path, const std::string& option) { Folder::create(path, option); }

}  // namespace ozref
