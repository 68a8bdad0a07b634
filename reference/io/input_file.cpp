#include "io/input_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.hpp"
#include "common/memory_budget.hpp"
#include "io/folder.hpp"

namespace ozref {
const char* non_regular_kind(mode_t mode) {
  if (S_ISREG(mode)) return nullptr;
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "an unknown kind of file";
}

std::string path_text(const std::string& path) { return path.empty() ? "'' (an empty file name)" : path; }

// O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused by require_regular).
constexpr int kReadFlags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;

InputFile::InputFile(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), kReadFlags);
  if (fd_ < 0) throw InputError(path_text(path) + ": cannot open for reading: " + std::strerror(errno));
  require_regular();
}

InputFile::InputFile(const Folder& folder, const std::string& name) : path_(folder.path_of(name)) {
  fd_ = ::openat(folder.fd(), name.c_str(), kReadFlags | O_NOFOLLOW);
  if (fd_ < 0 && errno == ELOOP)
    throw InputError(path_ + ": is a symbolic link; ozref reads the files of " + folder.path() + " only from inside it and follows no link there");
  if (fd_ < 0) throw InputError(path_ + ": cannot open for reading: " + std::strerror(errno));
  require_regular();
}

void InputFile::require_regular() {
  const std::string& path = path_;
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const std::string why = std::strerror(errno);
    ::close(fd_);
    throw InputError(path + ": cannot read its status: " + why);
  }
  if (const char* kind = non_regular_kind(st.st_mode)) {
    ::close(fd_);
    throw InputError(path + ": is " + kind + ", not a regular file (ozref reads regular files only)");
  }
  size_ = static_cast<uint64_t>(st.st_size);
}

InputFile::~InputFile() { ::close(fd_); }

size_t InputFile::read(char* buffer, size_t n) {
  while (true) {
    const ssize_t got = ::read(fd_, buffer, n);
    if (got >= 0) return static_cast<size_t>(got);
    if (errno != EINTR) throw InputError(path_ + ": read failed: " + std::strerror(errno));
  }
}

void InputFile::read_at(char* buffer, size_t n, uint64_t offset) {
  for (size_t done = 0; done < n;) {
    const ssize_t got = ::pread(fd_, buffer + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(path_ + ": read failed: " + std::strerror(errno));
    if (got == 0) throw InputError(path_ + ": the file ended at byte " + std::to_string(offset + done) + " while it was read (did it shrink?)");
    done += static_cast<size_t>(got);
  }
}

std::string read_input_file(const std::string& path, uint64_t max_bytes) {
  InputFile file(path);
  return read_input_file(file, max_bytes);
}

namespace {
InputError too_large(const std::string& path, uint64_t bytes, uint64_t max_bytes) {
  return InputError(path + ": " + std::to_string(bytes) + " bytes, more than the " + std::to_string(max_bytes) + " bytes ozref can hold in memory");
}
}  // namespace

void require_file_fits(const InputFile& file, uint64_t max_bytes) {
  if (file.size() > max_bytes) throw too_large(file.path(), file.size(), max_bytes);
}

std::string read_input_file(InputFile& file, uint64_t max_bytes) {
  require_file_fits(file, max_bytes);
  std::string bytes(static_cast<size_t>(file.size()), '\0');
  size_t used = 0;
  while (true) {  // a file may grow while it is read (or report size 0, as /proc files do)
    if (used == bytes.size()) {
      // Full: whether more follows is asked with a small read, so that a file of the size it
      // reported (nearly always) is never copied into a larger string.
      char probe[4096];
      const size_t more = file.read(probe, sizeof probe);
      if (more == 0) break;
      if (used + more > max_bytes) throw too_large(file.path(), used + more, max_bytes);
      bytes.append(probe, more);
      used += more;
      bytes.resize(std::min<uint64_t>(used + std::max<size_t>(used / 2, 4096), max_bytes + 1));
    }
    const size_t got = file.read(bytes.data() + used, bytes.size() - used);
    if (got == 0) break;
    used += got;
  }
  if (used > max_bytes) throw too_large(file.path(), used, max_bytes);
  bytes.resize(used);
  return bytes;
}

std::string read_input_file(const std::string& path) { return read_input_file(path, memory_budget()); }

}  // namespace ozref
