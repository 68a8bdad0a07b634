#include "io/folder.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.hpp"
#include "io/input_file.hpp"

namespace ozref {
namespace {

std::string named(const std::string& path, const std::string& what) { return (what.empty() ? "" : what + " ") + path_text(path); }

}  // namespace

std::shared_ptr<const Folder> Folder::open(const std::string& path, const std::string& what) {
  const std::string who = named(path, what);
  if (path.empty()) throw InputError(who + ": give a folder's name (an empty name is refused, not read as the current folder)");
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0 && errno == ENOTDIR) throw InputError(who + ": is not a folder");
  if (fd < 0) throw InputError(who + ": cannot open the folder: " + std::strerror(errno));
  return std::shared_ptr<const Folder>(new Folder(fd, path));
}

std::shared_ptr<const Folder> Folder::create(const std::string& path, const std::string& what) {
  const std::string who = named(path, what);
  if (path.empty()) throw InputError(who + ": give a folder's name (an empty name is refused, not read as the current folder)");
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw InputError(who + ": cannot create the folder: " + ec.message());
  std::shared_ptr<const Folder> f = open(path, what);
  if (::faccessat(f->fd(), ".", W_OK | X_OK, 0) != 0) throw InputError(who + ": the folder is not writable");
  return f;
}

std::shared_ptr<const Folder> Folder::create_without_link(const std::string& path, const std::string& what) {
  const std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  const std::string name = (p.has_filename() ? p : p.parent_path()).filename().string();
  if (name.empty() || name == "." || name == "..") return create(path, what);
  const std::filesystem::path parent = (p.has_filename() ? p : p.parent_path()).parent_path();
  const std::shared_ptr<const Folder> f = create(parent.empty() ? "." : parent.string())->subfolder(name, true);
  if (::faccessat(f->fd(), ".", W_OK | X_OK, 0) != 0) throw InputError(named(path, what) + ": the folder is not writable");
  return f;
}

Folder::~Folder() { ::close(fd_); }

std::shared_ptr<const Folder> Folder::subfolder(const std::string& name, bool create) const {
  const std::string path = path_of(name);
  if (create && ::mkdirat(fd_, name.c_str(), 0777) != 0 && errno != EEXIST)
    throw InputError(path + ": cannot create the folder: " + std::strerror(errno));
  const int fd = ::openat(fd_, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) return std::shared_ptr<const Folder>(new Folder(fd, path));
  const int why = errno;
  struct stat st {};
  if (::fstatat(fd_, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && non_regular_kind(st.st_mode) && !S_ISDIR(st.st_mode))
    throw InputError(path + ": is " + non_regular_kind(st.st_mode) + ", not a folder (ozref does not follow links inside " + path_ + ")");
  if (why == ENOTDIR) throw InputError(path + ": is a file, not a folder");
  throw InputError(path + ": cannot open the folder: " + std::strerror(why));
}

}  // namespace ozref
