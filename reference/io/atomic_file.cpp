#include "io/atomic_file.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <utility>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.hpp"
#include "io/input_file.hpp"
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

// The target's status when it exists (and may be replaced); nothing when it is absent. Refuses
// every other target (see the header).
std::optional<struct stat> replaceable_target(const std::string& path, const std::string& option) {
  const std::string who = named(path, option);
  if (path.empty()) throw InputError("empty output file name" + (option.empty() ? "" : " for " + option));
  struct stat st {};
  const bool exists = ::lstat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) throw InputError(who + ": cannot write there: " + std::strerror(errno));
  if (exists) {
    if (const char* kind = non_regular_kind(st.st_mode))
      throw InputError(who + ": is " + kind + "; ozref writes only to a new path or over a regular file, and leaves this one as it is");
    if (::access(path.c_str(), W_OK) != 0) throw InputError(who + ": the existing file is not writable");
  }
  const std::string folder = folder_of(path);
  struct stat fs {};
  if (::stat(folder.c_str(), &fs) != 0) throw InputError(who + ": its folder " + folder + " does not exist");
  if (!S_ISDIR(fs.st_mode)) throw InputError(who + ": " + folder + " is not a folder");
  if (::access(folder.c_str(), W_OK | X_OK) != 0) throw InputError(who + ": its folder " + folder + " is not writable");
  if (!exists) return std::nullopt;
  return st;
}

std::string temp_name(const std::string& path, unsigned attempt) {
  const uint64_t mix = (uint64_t(::getpid()) << 32) ^ uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                       (uint64_t(attempt) * 0x9e3779b97f4a7c15ULL);
  char name[40];
  std::snprintf(name, sizeof name, ".ozref-%016llx.tmp", static_cast<unsigned long long>(mix));
  return folder_of(path) + "/" + name;
}

// Creates the registered temporary file; its descriptor and name.
int create_temp(const std::string& path, std::string& name) {
  for (unsigned attempt = 0; attempt < 64; ++attempt) {
    name = temp_name(path, attempt);
    const int fd = create_registered_temp_file(name);
    if (fd >= 0) return fd;
    if (errno != EEXIST) break;
  }
  throw InputError(path + ": cannot create a temporary file beside it: " + std::strerror(errno));
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

void check_output_file(const std::string& path, const std::string& option) { replaceable_target(path, option); }

AtomicFile::AtomicFile(const std::string& path) : path_(path) {
  const std::optional<struct stat> target = replaceable_target(path, "");
  fd_ = create_temp(path, temp_);
  try {
    if (target) {
      // Owner and group can only be kept by root (or a member of the group): otherwise the file
      // becomes ours, as with any editor that saves by renaming.
      [[maybe_unused]] const int kept_owner = ::fchown(fd_, target->st_uid, target->st_gid);
      if (::fchmod(fd_, target->st_mode & 07777) != 0) throw InputError(path + ": cannot keep its mode: " + std::strerror(errno));
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
  ::unlink(temp_.c_str());
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
  if (std::rename(temp_.c_str(), path_.c_str()) != 0)
    throw InputError(path_ + ": cannot move the finished file into place: " + std::strerror(errno));
  committed_ = true;
  unregister_temp_file(temp_);
}

void write_file_atomically(const std::string& path, std::string_view bytes) {
  AtomicFile file(path);
  file.write(bytes);
  file.commit();
}

void prepare_output_folder(const std::string& path, const std::string& option) {
  const std::string who = named(path, option);
  if (path.empty()) throw InputError("empty folder name" + (option.empty() ? "" : " for " + option));
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError(who + ": cannot create the folder: " + ec.message());
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) throw InputError(who + ": is not a folder");
  if (::access(path.c_str(), W_OK | X_OK) != 0) throw InputError(who + ": the folder is not writable");
}

}  // namespace ozref
