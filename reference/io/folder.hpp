// A folder opened once as a directory handle, so that every file in it is opened relative to that
// handle (openat) and never through a symbolic link: a trace folder's manifest, arrays and
// reproducers/ stay inside the folder whatever links were planted in it. The folder's own path is
// the one the user named (a link there is followed: the user chose it); below it, a link, FIFO,
// device or socket where a file or subfolder is expected is refused with an InputError naming it.
#pragma once
#include <memory>
#include <string>

namespace ozref {

class Folder {
 public:
  // An existing folder; InputError naming `path` when it is missing, empty ("" is not the current
  // folder) or not a folder. `what` names it in messages ("the trace folder").
  static std::shared_ptr<const Folder> open(const std::string& path, const std::string& what = "");
  // The same, creating the folder (with its parents) when absent, and requiring it writable.
  static std::shared_ptr<const Folder> create(const std::string& path, const std::string& what = "");
  // The same, except that the last component of `path` is made and opened as subfolder() does: a
  // symbolic link there is refused (an output folder inside a trace folder, DIR/reproducers).
  static std::shared_ptr<const Folder> create_without_link(const std::string& path, const std::string& what = "");
  ~Folder();
  Folder(const Folder&) = delete;
  Folder& operator=(const Folder&) = delete;

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  std::string path_of(const std::string& name) const { return path_ + "/" + name; }
  // The subfolder `name` (one path component), created when absent if `create`; InputError when
  // it is a symbolic link or anything but a folder.
  std::shared_ptr<const Folder> subfolder(const std::string& name, bool create) const;

 private:
  Folder(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_;
  std::string path_;
};

}  // namespace ozref
