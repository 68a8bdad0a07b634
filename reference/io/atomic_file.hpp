// Every file ozref writes (--out C.npy, a trace's arrays and manifest) is written here, whole or
// not at all. The rule for the target path:
// - absent: created, with mode 0666 less the umask;
// - a regular file that we may write: replaced, keeping its permission bits (and its owner and
//   group where the system allows it);
// - anything else (a symbolic link, FIFO, device, socket or folder; a read-only file): refused
//   with an InputError naming it, and left as it is.
// The bytes go to a temporary file in the target's folder (a short name of io/temp_file.hpp's
// form, so that target names up to the file system's limit work) that is renamed over the target
// once complete. The temporary file is removed on any failure, and on SIGINT, SIGTERM and SIGHUP
// once the executable installed the cleanup (io/temp_file_cleanup.hpp); one left by a process
// that was killed (SIGKILL, a crash) is removed by the next write into that folder.
// A file in a folder opened as a handle (io/folder.hpp) is written relative to it, so that no
// symbolic link in its path is followed.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ozref {

class Folder;

// Refuses, before any work is done, a target that write_file_atomically would refuse, or whose
// folder is missing or not writable, or that is one of `inputs` (the same file by device and
// inode: another path or a hard link to it too). `option` names it in the message ("--out").
void check_output_file(const std::string& path, const std::string& option = "", const std::vector<std::string>& inputs = {});

void write_file_atomically(const std::string& path, std::string_view bytes);
void write_file_atomically(std::shared_ptr<const Folder> folder, const std::string& name, std::string_view bytes);

// The same in steps, for a file that other processes fill too (a distributed `ozref exact`):
// the target is checked and the temporary file created (with the target's mode) on
// construction; commit() makes it the target; the destructor removes it unless committed.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);
  AtomicFile(std::shared_ptr<const Folder> folder, const std::string& name);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::string& temp_path() const { return temp_; }
  void write(std::string_view bytes);  // appended at the file position
  // The temporary file's length, its blocks allocated (zeros past what was written): a file system
  // without room refuses here, before other processes write into the file.
  void reserve(uint64_t bytes);
  void commit();                       // flushed to disk and renamed over the target

 private:
  void abandon();
  std::shared_ptr<const Folder> folder_;
  std::string name_, path_, temp_name_, temp_;
  int fd_ = -1;
  bool committed_ = false;
};

// An output folder (probe --out DIR): created when absent (with its parents); InputError when it
// is not a folder (a symbolic link to a folder is one) or not writable (Folder::create).
void prepare_output_folder(const std::string& path, const std::string& option = "");

}  // namespace ozref
